// Every video has a face: in the Library, videos that are not downloaded (one MP4, one HLS stream
// from the demo's emulator) show a real frame as their poster. The tile asks for it, the app takes
// the frame from the stream in the background (ffmpeg from npm) and tells the page, which swaps the
// generated poster for the frame: an <img> that loads and holds the fixtures' colour bars.
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';

interface VideoInfo {
  id: string;
  hls: boolean;
  file: { state: string; thumbUrl: string | null };
}

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  // Nothing downloaded: the posters must come from the links. The emulator delivers every other
  // video as an HLS stream: two jobs give one of each.
  app = await demoAppWith(
    browser,
    [
      { kind: 'video', body: { modelID: 'videoa-3.1', prompt: 'a heron standing in shallow water' } },
      { kind: 'video', body: { modelID: 'videoa-3.1', prompt: 'a tram crossing a bridge at dusk' } },
    ],
    { autoDownload: false, timeoutMs: 90_000 },
  );
});

test.afterAll(async () => {
  await app?.stop();
});

/** Share of the loaded image's pixels in the test pattern's saturated bar colours (none in the generated poster). */
const barShare = (page: Page, id: string) =>
  page
    .locator(`[data-testid="asset-tile"][data-asset-id="${id}"] [data-testid="video-poster"]`)
    .evaluate((img: HTMLImageElement) => {
      if (!img.complete || img.naturalWidth === 0) return 0;
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d');
      if (!context) return 0;
      context.drawImage(img, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let saturated = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (Math.max(r, g, b) > 170 && Math.min(r, g, b) < 90) saturated += 1;
      }
      return saturated / (data.length / 4);
    });

test('videos that are not downloaded show a real frame as their poster', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  const videos = (await invokeInPage<{ items: VideoInfo[] }>(page, 'assets:list', { filter: { kind: 'video' } })).items;
  expect(videos.map((v) => v.hls).sort()).toEqual([false, true]);
  for (const video of videos) {
    expect(video.file.state).toBe('remote');
    const tile = library.tiles.and(page.locator(`[data-asset-id="${video.id}"]`));
    await expect(tile).toHaveAttribute('data-local', 'false');
    const poster = tile.getByTestId('video-poster');
    // The frame replaces the generated poster once the app says it is there.
    await expect(poster).toHaveAttribute('src', /^\/media\/Demo\/\.thumbs\/remote\/[^/]+\.webp$/, { timeout: 30_000 });
    await expect
      .poll(() => poster.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
      .toBeGreaterThan(0);
    await expect
      .poll(() => barShare(page, video.id), { message: `${video.hls ? 'HLS' : 'MP4'} poster shows the picture` })
      .toBeGreaterThan(0.3);
  }
  // Nothing was downloaded for it.
  const after = (await invokeInPage<{ items: VideoInfo[] }>(page, 'assets:list', { filter: { kind: 'video' } })).items;
  expect(after.map((v) => v.file.state)).toEqual(['remote', 'remote']);
});

test("Create's results show the stream's picture too, not a blank tile", async ({ page }) => {
  await page.goto(app.url);
  await page.getByTestId('nav-create-video').click();
  const view = page.getByTestId('view-create-video');
  const stream = view.getByTestId('result-stream').first();
  await expect(stream).toBeVisible({ timeout: 20_000 });
  const poster = stream.getByTestId('video-poster');
  await expect(poster).toHaveAttribute('src', /^\/media\/Demo\/\.thumbs\/remote\/[^/]+\.webp$/, { timeout: 30_000 });
  await expect
    .poll(() => poster.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
});
