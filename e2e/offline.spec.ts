// Offline: with the service gone (the emulator process stopped), everything downloaded stays browsable,
// searchable and playable; remote-only items are marked and their actions say why they wait; work that
// runs on the service (an upscale) says it needs the service, downloaded or not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures/page-errors.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { startEmulatorProcess, type EmulatorProcess } from './fixtures/emulator-process.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { generateAndWait, invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

const KEY = 'demo-key';
let emulator: EmulatorProcess;
let app: RunningApp;
let remoteOnlyId = '';
let videoId = '';

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000);
  emulator = await startEmulatorProcess(['--time-scale', '20', '--api-key', KEY]);
  // A service account on the external emulator: its address in the settings, its key from the environment.
  app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl: emulator.url } }));
  });
  const page = await browser.newPage();
  await page.goto(app.url);
  await generateAndWait(
    page,
    [
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a harbor at dawn with fishing boats', numImages: 2 } },
      { kind: 'video', body: { modelID: 'videoa-3.1', prompt: 'a kite over sand dunes' } },
    ],
    90_000,
  );
  // Auto-download keeps all three offline (the video through the service's two-step download).
  await expect
    .poll(async () => (await invokeInPage<{ offline: number }>(page, 'assets:counts', {})).offline, { timeout: 60_000 })
    .toBe(3);
  await invokeInPage(page, 'settings:update', { autoDownload: false });
  await generateAndWait(page, [{ kind: 'image', body: { modelID: 'imagea', prompt: 'a cactus under the stars' } }]);
  const all = await invokeInPage<{ items: { id: string; kind: string; prompt: string }[] }>(page, 'assets:list', {});
  remoteOnlyId = all.items.find((a) => a.prompt.includes('cactus'))?.id ?? '';
  videoId = all.items.find((a) => a.kind === 'video')?.id ?? '';
  await page.close();
  await emulator.stop();
});

test.afterAll(async () => {
  await app?.stop();
  await emulator?.stop();
});

test('with the service gone, downloaded media stays browsable, searchable and playable', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(app.url);
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.open();
  await page.getByTestId('library-refresh').click();
  await expect(library.offlineBanner).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('connection')).toHaveText("Can't reach the service");

  // Browsable: all four, the remote-only one marked.
  await expect(library.tiles).toHaveCount(4);
  await expect(library.tile(remoteOnlyId).getByTestId('tile-remote-only')).toBeVisible();
  await expect(library.tiles.getByTestId('tile-remote-only')).toHaveCount(1);
  await screenshotBothSchemes(page, 'library-offline');

  // Searchable.
  await library.search.fill('harbor');
  await expect(library.tiles).toHaveCount(2);
  await library.tiles.first().dblclick();
  await expect(view.image).toBeVisible();
  await expect
    .poll(() => view.image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  // Downloaded, and still no upscale: it runs on the service. The true reason, in words beside the
  // button and as its description, never "not downloaded".
  await expect(view.action('upscale')).toBeDisabled();
  await expect(view.root.getByTestId('why-upscale')).toHaveText(/Upscaling needs the service, which cannot be reached/);
  await expect(view.action('upscale')).toHaveAccessibleDescription(/Upscaling needs the service/);
  await expect(view.action('upscale')).not.toHaveAttribute('title', /not downloaded/);
  await page.keyboard.press('Escape');
  await library.search.fill('');

  // Playable, from the local file.
  await library.tile(videoId).dblclick();
  await expect(view.video).toHaveAttribute('data-local', 'true');
  await view.play();
  await expect.poll(() => view.currentTime(), { timeout: 10_000 }).toBeGreaterThan(0.3);
  await page.keyboard.press('Escape');

  // The remote-only one explains why it waits, and so do its actions.
  await library.tile(remoteOnlyId).dblclick();
  await expect(view.waiting).toContainText('cannot be reached');
  await expect(view.offlineStatus).toContainText('waits until the service answers again');
  await expect(view.action('upscale')).toBeDisabled();
  await expect(view.action('upscale')).toHaveAttribute('title', /cannot be reached/);
  await expect(view.action('deleteRemote')).toBeDisabled();
  await expect(view.action('remix')).toBeEnabled();
  await screenshotBothSchemes(page, 'asset-view-offline-remote-only');
  await page.keyboard.press('Escape');

  // Nothing noisy: no error toasts, no uncaught errors.
  await expect(page.getByTestId('toast').filter({ hasText: /error|failed/i })).toHaveCount(0);
  expect(errors).toEqual([]);
});
