// A large photo through browser mode: a 19 MiB PNG (random pixels, so it does not compress) picked
// as a training photo travels over the bridge in 1 MiB chunks, reaches the service, and the
// browser-mode process is still running afterwards (one giant WebSocket message used to end it).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { ModelsPage } from './pages/models-page.ts';

let emulator: RunningEmulator;
let dir: string;
let photo: string;

test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'atelier-large-'));
  photo = join(dir, 'large-photo.png');
  const side = 2_600;
  const noise = sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } });
  writeFileSync(photo, await noise.png({ compressionLevel: 0 }).toBuffer());
});
test.afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a 19 MiB photo uploads through browser mode and the process lives on', async ({ page, freshApp }) => {
  test.setTimeout(120_000);
  const size = statSync(photo).size;
  expect(size).toBeGreaterThan(19 * 1024 * 1024);
  expect(size).toBeLessThan(20 * 1024 * 1024 - 2048);

  const shell = new AppShellPage(page);
  await shell.open(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, 'demo-key');
  await expect(shell.view('create-image')).toBeVisible();
  await shell.goTo('models');
  const models = new ModelsPage(page);
  await models.createModel('Large photo', 'person');
  await expect(models.row('Large photo')).toHaveAttribute('aria-current', 'true');

  await models.photoInput.setInputFiles(photo);
  await expect(models.staged).toHaveCount(1);
  await models.uploadButton.click();
  await expect(models.uploadRows.and(page.locator('[data-state="succeeded"]'))).toHaveCount(1, { timeout: 60_000 });
  await models.filterImages('Training photos');
  await expect(models.imageTiles).toHaveCount(1);

  expect(freshApp.process.exitCode, 'browser mode is still running').toBeNull();
  // And it still answers: the page can ask the core for something after the upload.
  await shell.goTo('settings');
  await expect(page.getByTestId('settings-service')).toBeVisible();
});
