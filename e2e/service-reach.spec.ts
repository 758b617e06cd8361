// Connectivity measured, not assumed (issue 29): browser mode started while its service is down says
// so on its own within seconds; Generate is disabled with the true reason (in words next to it and as
// its accessible description), and neither the form, its shortcut nor a direct call makes a job;
// when the service comes back on the same address the status turns Online with no click, and
// nothing refused while it was down is sent afterwards. In browser mode, a key the user chose to keep
// opens the offline library after a restart with the service down.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../emulator/index.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { expect, test } from './fixtures/page-errors.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { callInPage, generateAndWait, invokeInPage } from './pages/contract-client.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { LibraryPage } from './pages/library-page.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { JobsPage } from './pages/jobs-page.ts';

const KEY = 'demo-key';

/** A loopback port where nothing listens: an emulator's, closed again (the service is "down"). */
async function deadPort(): Promise<number> {
  const emulator = await startEmulator({ port: 0 });
  const port = Number(new URL(emulator.url).port);
  await emulator.close();
  return port;
}

let app: RunningApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('started with the service down: says so within 15 s, Generate sends nothing, and it is Online again with no click', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const port = await deadPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl } }));
  });
  const started = Date.now();
  const shell = new AppShellPage(page);
  await page.goto(app.url);
  // Never a green "Online" it did not measure.
  await expect(shell.connection).not.toHaveText('Online');
  await expect(shell.connection).toHaveText("Can't reach the service", { timeout: 15_000 });
  expect(Date.now() - started).toBeLessThan(15_000);

  // Generate says why it cannot, where the user looks, and as the button's description.
  await shell.goTo('create-image');
  const create = new CreateImagePage(page);
  await create.prompt.fill('a lighthouse in a storm');
  await expect(create.generate).toBeDisabled();
  await expect(create.generateBlocked).toContainText('cannot be reached');
  await expect(create.generate).toHaveAccessibleDescription(/needs the service, which cannot be reached/);
  // The shortcut does not send it either; the bar that says why takes the focus.
  await create.prompt.press('Control+Enter');
  await expect(create.generateBlocked).toBeVisible();
  // Nor does the core, asked directly: refused before any job is written, in plain words.
  const direct = await callInPage(page, 'jobs:submit', {
    kind: 'image',
    body: { modelID: 'imagea', prompt: 'a lighthouse in a storm' },
  });
  expect(direct.ok).toBe(false);
  expect(direct.error?.code).toBe('offline');
  expect(direct.error?.message).toMatch(/can't reach the service, so nothing was sent and nothing was charged/);

  // No job at all, so no failed one.
  const jobs = new JobsPage(page);
  await jobs.open();
  await expect(jobs.root).toBeVisible();
  await expect(jobs.rows).toHaveCount(0);
  await expect(shell.jobsInFlight).toHaveText('No jobs running');

  // The service comes back on the same address: Online without a click, and what was refused stays unsent.
  const emulator = await startEmulator({ port });
  try {
    await expect(shell.connection).toHaveText('Online', { timeout: 60_000 });
    // The refresh that follows a comeback has run (the service listed the account's models) …
    await expect
      .poll(() => emulator.control.stats().byRoute['GET /models'] ?? 0, { timeout: 30_000 })
      .toBeGreaterThan(0);
    // … and no generation was sent at any point.
    expect(emulator.control.stats().byRoute['POST /images/generation'] ?? 0).toBe(0);
    await expect(jobs.rows).toHaveCount(0);
    await shell.goTo('create-image');
    await expect(create.generate).toBeEnabled();
    await expect(create.generateBlocked).toHaveCount(0);
  } finally {
    await emulator.close();
  }
});

test('browser mode: with "Keep the key after Atelier stops" on, the offline library opens after a restart with the service down', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const emulator = await startEmulator({ port: 0, timeScale: 20 });
  let emulatorUp = true;
  try {
    app = await startBrowserModeApp();
    await page.goto(app.url);
    await new FirstRunPage(page).enterKey(emulator.url, KEY);
    await expect(new CreateImagePage(page).root).toBeVisible();
    await generateAndWait(page, [{ kind: 'image', body: { modelID: 'imagea', prompt: 'a red kite over a beach' } }]);
    await expect
      .poll(async () => (await invokeInPage<{ offline: number }>(page, 'assets:counts', {})).offline, {
        timeout: 30_000,
      })
      .toBe(1);

    // Browser mode cannot encrypt the key: kept for the session unless the user keeps it, here.
    const shell = new AppShellPage(page);
    await shell.goTo('settings');
    await expect(page.getByTestId('key-storage')).toHaveText('This session only');
    await page.getByTestId('toggle-keep-key').getByRole('switch').click();
    await expect(page.getByTestId('key-storage')).toHaveText('Not encrypted');
    expect(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')).toContain('"storage": "plain"');

    await emulator.close();
    emulatorUp = false;
    app = await app.restart();
    await page.goto(app.url);
    // Not the Welcome screen: the library, offline, with its downloaded image viewable.
    await expect(page.getByTestId('view-first-run')).toHaveCount(0);
    await expect(shell.connection).toHaveText("Can't reach the service", { timeout: 15_000 });
    const library = new LibraryPage(page);
    await library.open();
    await expect(library.tiles).toHaveCount(1);
    await library.tiles.first().dblclick();
    const view = new AssetViewPage(page);
    await expect
      .poll(() => view.image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  } finally {
    if (emulatorUp) await emulator.close();
  }
});
