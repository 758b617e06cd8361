// Player: an HLS video streams through hls.js and actually plays; the controls sit on the picture and the
// keyboard drives it; the two-step MP4 download (the service prepares the file, then it arrives) ends in a
// local copy that plays.
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

interface VideoInfo {
  id: string;
  hls: boolean;
  file: { state: string };
}

let app: RunningApp;
let videos: VideoInfo[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  // Outputs kept remote (this file downloads them itself). The emulator delivers every other video
  // as an HLS stream: two jobs give one of each.
  app = await demoAppWith(
    browser,
    [
      { kind: 'video', body: { modelID: 'videoa-3.1', prompt: 'a paper boat drifting down a gutter' } },
      { kind: 'video', body: { modelID: 'videoa-3.1', prompt: 'a kite over sand dunes' } },
    ],
    { autoDownload: false, timeoutMs: 90_000 },
  );
  const page = await browser.newPage();
  await page.goto(app.url);
  videos = (await invokeInPage<{ items: VideoInfo[] }>(page, 'assets:list', { filter: { kind: 'video' } })).items;
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
});

test.beforeEach(async ({ page }) => {
  await page.goto(app.url);
  await new LibraryPage(page).open();
});

/** A media host that does not allow our origin (the emulator's, like a CDN's, does): hls.js cannot fetch from it. */
async function refuseCrossOriginStreams(page: Page): Promise<void> {
  await page.route('**/hls/**', async (route) => {
    const response = await route.fetch();
    // Allowing only some other site makes the browser refuse hls.js's cross-origin reads.
    const headers = { ...response.headers(), 'access-control-allow-origin': 'https://other.example' };
    await route.fulfill({ response, headers });
  });
}

test('an HLS video streams through hls.js and plays', async ({ page }) => {
  const stream = videos.find((v) => v.hls);
  expect(stream, 'the emulator made an HLS video').toBeDefined();
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.tile(stream?.id ?? '').dblclick();
  await expect(view.video).toHaveAttribute('data-source', 'hls');
  await expect(view.video).toHaveAttribute('data-local', 'false');
  await expect(view.video).toHaveAttribute('data-engine', 'hls.js');
  // hls.js feeds the element through Media Source Extensions: its src is a blob: URL.
  await expect.poll(() => view.video.evaluate((el: HTMLVideoElement) => el.currentSrc)).toMatch(/^blob:/);
  await view.play();
  await expect.poll(() => view.currentTime(), { timeout: 10_000 }).toBeGreaterThan(0.5);
  await expect(view.video).toHaveAttribute('data-engine', 'hls.js');
  await view.video.evaluate((el: HTMLVideoElement) => el.pause());
  await screenshotBothSchemes(page, 'asset-view-video-stream');
});

test("a stream whose host refuses hls.js (no CORS) falls back to the browser's own HLS player", async ({ page }) => {
  const stream = videos.find((v) => v.hls);
  await refuseCrossOriginStreams(page);
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.tile(stream?.id ?? '').dblclick();
  await expect(view.video).toHaveAttribute('data-engine', 'native');
  await view.play();
  await expect.poll(() => view.currentTime(), { timeout: 10_000 }).toBeGreaterThan(0.5);
  await expect(view.root.getByTestId('player-error')).toHaveCount(0);
});

test('the controls sit on the picture; Space, Shift+arrows, M and F drive the player', async ({ page }) => {
  const stream = videos.find((v) => v.hls);
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.tile(stream?.id ?? '').dblclick();
  await expect
    .poll(() => view.video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(1);
  const controls = view.root.getByTestId('player-controls');
  const picture = await view.video.boundingBox();
  const bar = await controls.boundingBox();
  if (!picture || !bar) throw new Error('no picture or controls');
  // On the picture: inside its box, along its bottom edge.
  expect(bar.x).toBeGreaterThanOrEqual(picture.x - 0.5);
  expect(bar.x + bar.width).toBeLessThanOrEqual(picture.x + picture.width + 0.5);
  expect(bar.y).toBeGreaterThanOrEqual(picture.y - 0.5);
  expect(bar.y + bar.height).toBeLessThanOrEqual(picture.y + picture.height + 0.5);
  expect(picture.y + picture.height - (bar.y + bar.height)).toBeLessThan(24);

  const paused = () => view.video.evaluate((el: HTMLVideoElement) => el.paused);
  await view.video.evaluate((el: HTMLVideoElement) => (el.muted = true));
  await page.keyboard.press('Space');
  await expect.poll(paused).toBe(false);
  await page.keyboard.press('Space');
  await expect.poll(paused).toBe(true);
  await view.video.evaluate((el: HTMLVideoElement) => (el.currentTime = 0));
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(() => view.currentTime()).toBeGreaterThan(1);
  await page.keyboard.press('m');
  await expect.poll(() => view.video.evaluate((el: HTMLVideoElement) => el.muted)).toBe(false);
  await page.keyboard.press('m');
  await expect.poll(() => view.video.evaluate((el: HTMLVideoElement) => el.muted)).toBe(true);
  await page.keyboard.press('f');
  await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
  await page.keyboard.press('f');
  await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);
  // Plain arrows still move between the items.
  await expect(view.position).toHaveText(/^\d+ of 2$/);
  const position = await view.position.textContent();
  await page.keyboard.press(position?.startsWith('1') ? 'ArrowRight' : 'ArrowLeft');
  await expect(view.position).not.toHaveText(position ?? '');
});

test('the two-step video download: the service prepares it, the file arrives, it plays from disk', async ({ page }) => {
  const file = videos.find((v) => !v.hls);
  expect(file, 'the emulator made an MP4 video').toBeDefined();
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.tile(file?.id ?? '').dblclick();
  await expect(view.video).toHaveAttribute('data-local', 'false');
  await expect(view.offlineStatus).toHaveAttribute('data-state', 'remote');
  await view.root.getByTestId('download-mp4').click();
  // The service's percentComplete is shown while it prepares, in words and on the bar.
  await expect(view.root.getByTestId('download-preparing')).toHaveText(/preparing the video file… \d{1,3}%/);
  await expect(view.root.getByRole('progressbar', { name: 'Preparing the video' })).toHaveAttribute(
    'aria-valuenow',
    /^\d{1,3}$/,
  );
  await screenshotBothSchemes(page, 'asset-view-video-preparing');
  await expect(view.offlineStatus).toHaveAttribute('data-state', 'downloaded', { timeout: 30_000 });
  await expect(view.offlineStatus).toContainText('Available offline');
  await expect(view.video).toHaveAttribute('data-local', 'true');
  await expect(view.video).toHaveAttribute('data-source', 'mp4');
  await view.play();
  await expect.poll(() => view.currentTime(), { timeout: 10_000 }).toBeGreaterThan(0.3);
  await page.keyboard.press('Escape');
  await expect(library.tile(file?.id ?? '')).toHaveAttribute('data-local', 'true');
});
