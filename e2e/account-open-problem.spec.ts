// An account database written by a newer Atelier: first run says so (not a bare "Welcome"), and
// "Start fresh" sets the old file aside (kept next to the new one) and opens the account.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { accountDatabasePath } from '../src-main/core/db/account-path.ts';
import { keyFingerprint } from '../src-main/core/secrets/fingerprint.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { expect, test } from './fixtures/page-errors.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

const KEY = 'demo-key';
let emulator: RunningEmulator;
let app: RunningApp | undefined;

test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
test.afterAll(async () => {
  await app?.stop();
  await emulator.close();
});

test('a database from a newer Atelier is explained at start, and Start fresh keeps the old file', async ({ page }) => {
  let dbFile = '';
  app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl: emulator.url } }));
    dbFile = accountDatabasePath(dataDir, { baseUrl: emulator.url, keyFingerprint: keyFingerprint(KEY) });
    mkdirSync(dirname(dbFile), { recursive: true });
    const newer = new Database(dbFile);
    newer.pragma('user_version = 999');
    newer.close();
  });
  await page.goto(app.url);
  const problem = page.getByTestId('account-open-problem');
  await expect(problem).toBeVisible();
  await expect(problem).toContainText('written by a newer Atelier (schema 999)');
  await expect(page.getByTestId('open-folder')).toBeVisible();
  await screenshotBothSchemes(page, 'first-run-account-open-problem');
  await page.getByTestId('start-fresh').click();
  await expect(page.getByTestId('view-first-run')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId('connection')).toBeVisible();
  expect(readdirSync(dirname(dbFile)).some((name) => name.startsWith('atelier.db.newer-'))).toBe(true);
});
