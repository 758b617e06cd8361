// True shapes: Create's results and the Library's tiles keep each item's own aspect ratio (within 2 %),
// in justified rows; a job still being made shows tiles of the shape it asked for; videos show a face.
import type { Locator } from '@playwright/test';
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

interface AssetLike {
  id: string;
  kind: 'image' | 'video';
  url: string | null;
  file: { localUrl: string | null; path: string | null; thumbUrl: string | null };
}

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000);
  app = await demoAppWith(
    browser,
    [
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a wide river delta', aspectRatio: '21:9' } },
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a tall cypress', aspectRatio: '9:16', numImages: 2 } },
      { kind: 'image', body: { modelID: 'imageb', prompt: 'a square tile', aspectRatio: '1:1' } },
      { kind: 'image', body: { modelID: 'imageb', prompt: 'a landscape of dunes', aspectRatio: '16:9' } },
      {
        kind: 'video',
        body: { modelID: 'videoa-3.1', prompt: 'a portrait waterfall', options: { videoa: { aspectRatio: '9:16' } } },
      },
      {
        kind: 'video',
        body: { modelID: 'videoa-3.1', prompt: 'a landscape train', options: { videoa: { aspectRatio: '16:9' } } },
      },
    ],
    { offline: 7, timeoutMs: 90_000 },
  );
});

test.afterAll(async () => {
  await app?.stop();
});

/** The media's own width ÷ height: the file's pixels as the browser decodes them. */
async function ownAspect(page: Page, asset: AssetLike): Promise<number> {
  const url = asset.file.localUrl ?? asset.url ?? '';
  return page.evaluate(
    ({ url, kind }) =>
      new Promise<number>((resolve, reject) => {
        if (kind === 'image') {
          const img = new Image();
          img.onload = () => resolve(img.naturalWidth / img.naturalHeight);
          img.onerror = () => reject(new Error(`cannot load ${url}`));
          img.src = url;
        } else {
          const video = document.createElement('video');
          video.muted = true;
          video.preload = 'metadata';
          video.onloadedmetadata = () => resolve(video.videoWidth / video.videoHeight);
          video.onerror = () => reject(new Error(`cannot load ${url}`));
          video.src = url;
        }
      }),
    { url, kind: asset.kind },
  );
}

async function boxAspect(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('no box');
  return box.width / box.height;
}

async function allAssets(page: Page): Promise<AssetLike[]> {
  return (await invokeInPage<{ items: AssetLike[] }>(page, 'assets:list', {})).items;
}

test('library tiles keep each item’s own shape, in justified rows', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  const assets = await allAssets(page);
  expect(assets).toHaveLength(7);
  await expect(library.tiles).toHaveCount(7);
  for (const asset of assets) {
    const own = await ownAspect(page, asset);
    await expect
      .poll(async () => Math.abs((await boxAspect(library.tile(asset.id))) / own - 1), {
        message: `${asset.kind} ${asset.id} keeps its shape`,
      })
      .toBeLessThan(0.02);
  }
  // Rows: tiles sharing a top share a height.
  const boxes = await library.tiles.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), height: r.height };
    }),
  );
  for (const a of boxes)
    for (const b of boxes) if (a.top === b.top) expect(Math.abs(a.height - b.height)).toBeLessThan(1);
  // Every video shows a face (its poster or its own first frame), never a bare placeholder.
  for (const asset of assets.filter((a) => a.kind === 'video')) {
    await expect(library.tile(asset.id).getByTestId('tile-placeholder')).toHaveCount(0);
  }
  await screenshotBothSchemes(page, 'library-shapes');
});

test('Create results keep each output’s own shape; a job being made shows the shape it asked for', async ({ page }) => {
  await page.goto(app.url);
  await page.getByTestId('nav-create-image').click();
  const results = page.getByTestId('view-create-image').getByTestId('results');
  const assets = await allAssets(page);
  const images = assets.filter((a) => a.kind === 'image');
  for (const asset of images) {
    const tile = results.locator(`[data-asset-id="${asset.id}"]`);
    await expect(tile).toBeVisible();
    const own = await ownAspect(page, asset);
    await expect
      .poll(async () => Math.abs((await boxAspect(tile)) / own - 1), { message: `image ${asset.id}` })
      .toBeLessThan(0.02);
  }
  await screenshotBothSchemes(page, 'create-image-shapes');

  await page.getByTestId('nav-create-video').click();
  const videoResults = page.getByTestId('view-create-video').getByTestId('results');
  for (const asset of assets.filter((a) => a.kind === 'video')) {
    const tile = videoResults.locator(`[data-asset-id="${asset.id}"]`);
    await expect(tile).toBeVisible();
    const own = await ownAspect(page, asset);
    await expect
      .poll(async () => Math.abs((await boxAspect(tile)) / own - 1), { message: `video ${asset.id}` })
      .toBeLessThan(0.02);
    // A streamed result has a face too (not the words "Streaming video").
    await expect(tile).not.toContainText('Streaming video');
  }

  // A 21:9 image job in flight: its pending tile is 21:9 at once.
  await invokeInPage(page, 'jobs:submit', {
    kind: 'image',
    body: { modelID: 'imagea', prompt: 'a pending panorama', aspectRatio: '21:9', numImages: 1 },
  });
  await page.getByTestId('nav-create-image').click();
  const pending = page.getByTestId('view-create-image').getByTestId('result-pending').first();
  await expect(pending).toBeVisible();
  expect(Math.abs((await boxAspect(pending)) / (21 / 9) - 1)).toBeLessThan(0.02);
});
