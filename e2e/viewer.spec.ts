// The viewer (asset view) like a photo tool: a 1:1, a 9:16 and a 21:9 image each open whole and centred at
// 1280×800, 1024×640 and 1920×1080; `0` shows 100 %; the wheel zooms around the pointer; a drag pans; the
// filmstrip and the arrows move; the details panel folds away.
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

const SHAPES = [
  { name: '1:1', aspectRatio: '1:1', prompt: 'a square of moss on granite' },
  { name: '9:16', aspectRatio: '9:16', prompt: 'a tall lighthouse against the sky' },
  { name: '21:9', aspectRatio: '21:9', prompt: 'a wide canyon panorama' },
] as const;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
  { width: 1920, height: 1080 },
] as const;

interface AssetLike {
  id: string;
  prompt: string | null;
  width: number | null;
  height: number | null;
}

let app: RunningApp;
const ids: Record<string, string> = {};

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  app = await demoAppWith(
    browser,
    SHAPES.map((shape) => ({
      kind: 'image' as const,
      body: { modelID: 'imagea', prompt: shape.prompt, aspectRatio: shape.aspectRatio },
    })),
    { offline: SHAPES.length },
  );
  const page = await browser.newPage();
  await page.goto(app.url);
  const { items } = await invokeInPage<{ items: AssetLike[] }>(page, 'assets:list', { filter: { kind: 'image' } });
  for (const shape of SHAPES) {
    const found = items.find((item) => item.prompt === shape.prompt);
    if (!found) throw new Error(`no image for ${shape.name}`);
    ids[shape.name] = found.id;
  }
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
});

async function openImage(page: Page, id: string): Promise<AssetViewPage> {
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  // Sent to the tile itself: a pointer double click aims at a position, and the justified rows
  // may still settle while thumbnails tell their true shapes (the row under the pointer shifts).
  await library.tile(id).dispatchEvent('dblclick');
  await expect(view.root).toHaveAttribute('data-asset-id', id);
  // The file itself has arrived (its own pixels decide the fit).
  await expect
    .poll(() => view.image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  return view;
}

async function boxes(page: Page) {
  const view = new AssetViewPage(page);
  const image = await view.image.boundingBox();
  const stage = await view.stage.boundingBox();
  if (!image || !stage) throw new Error('no image or stage box');
  const natural = await view.image.evaluate((img: HTMLImageElement) => ({
    width: img.naturalWidth,
    height: img.naturalHeight,
  }));
  return { image, stage, natural };
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    for (const shape of SHAPES) {
      test(`a ${shape.name} image opens whole and centred, never enlarged`, async ({ page }) => {
        await page.goto(app.url);
        await new LibraryPage(page).open();
        const view = await openImage(page, ids[shape.name] ?? '');
        await expect(view.stage).toHaveAttribute('data-fit', 'true');
        // The stage is measured by a ResizeObserver: on a loaded machine its first answer can come a few
        // frames after the view opened; the fit follows it.
        await expect
          .poll(async () => {
            const { image } = await boxes(page);
            return image.y + image.height <= viewport.height + 0.5 && image.x + image.width <= viewport.width + 0.5;
          })
          .toBe(true);
        const { image, stage, natural } = await boxes(page);
        // Inside the window and inside the stage.
        expect(image.x).toBeGreaterThanOrEqual(-0.5);
        expect(image.y).toBeGreaterThanOrEqual(-0.5);
        expect(image.x + image.width).toBeLessThanOrEqual(viewport.width + 0.5);
        expect(image.y + image.height).toBeLessThanOrEqual(viewport.height + 0.5);
        expect(image.x).toBeGreaterThanOrEqual(stage.x - 0.5);
        expect(image.y).toBeGreaterThanOrEqual(stage.y - 0.5);
        expect(image.x + image.width).toBeLessThanOrEqual(stage.x + stage.width + 0.5);
        expect(image.y + image.height).toBeLessThanOrEqual(stage.y + stage.height + 0.5);
        // Centred in the stage, its own shape, as large as fits but never past 100 %.
        expect(Math.abs(image.x + image.width / 2 - (stage.x + stage.width / 2))).toBeLessThan(1);
        expect(Math.abs(image.y + image.height / 2 - (stage.y + stage.height / 2))).toBeLessThan(1);
        expect(image.width / image.height).toBeCloseTo(natural.width / natural.height, 1);
        expect(image.width).toBeLessThanOrEqual(natural.width + 0.5);
        const fills = Math.max(image.width / stage.width, image.height / stage.height);
        expect(image.width >= natural.width - 0.5 || fills > 0.99).toBe(true);
      });
    }
  });
}

test('Z shows 100 % and toggles back to fit, the wheel zooms around the pointer, a drag pans', async ({ page }) => {
  await page.goto(app.url);
  await new LibraryPage(page).open();
  const view = await openImage(page, ids['1:1'] ?? '');
  // 0 clears the rating now (issue 32); Z and the zoom readout show 100 %.
  await page.keyboard.press('z');
  await expect(view.stage).toHaveAttribute('data-scale', '1.0000');
  const { natural } = await boxes(page);
  let { image } = await boxes(page);
  expect(image.width).toBeCloseTo(natural.width, 0);
  expect(image.height).toBeCloseTo(natural.height, 0);
  await expect(view.root.getByTestId('zoom-readout')).toHaveText('100 %');

  await page.keyboard.press('z');
  await expect(view.stage).toHaveAttribute('data-fit', 'true');

  // From fit: the wheel over the picture zooms in.
  const fitBox = (await boxes(page)).image;
  await page.mouse.move(fitBox.x + fitBox.width / 2, fitBox.y + fitBox.height / 2);
  await page.mouse.wheel(0, -100);
  await expect
    .poll(async () => Number(await view.stage.getAttribute('data-scale')))
    .toBeGreaterThan(fitBox.width / natural.width + 0.01);

  // At 100 % the picture covers the stage: the point under an off-centre pointer stays there.
  await view.root.getByTestId('zoom-readout').click();
  await expect(view.stage).toHaveAttribute('data-scale', '1.0000');
  ({ image } = await boxes(page));
  const { stage } = await boxes(page);
  const pointer = { x: stage.x + stage.width * 0.3, y: stage.y + stage.height * 0.35 };
  const before = { u: (pointer.x - image.x) / image.width, v: (pointer.y - image.y) / image.height };
  await page.mouse.move(pointer.x, pointer.y);
  await page.mouse.wheel(0, -100);
  await expect.poll(async () => Number(await view.stage.getAttribute('data-scale'))).toBeCloseTo(1.25, 2);
  ({ image } = await boxes(page));
  expect(image.x + before.u * image.width).toBeCloseTo(pointer.x, 0);
  expect(image.y + before.v * image.height).toBeCloseTo(pointer.y, 0);

  // A drag moves the zoomed picture with the pointer.
  await page.mouse.down();
  await page.mouse.move(pointer.x + 60, pointer.y + 40, { steps: 4 });
  await page.mouse.up();
  const moved = (await boxes(page)).image;
  expect(moved.x - image.x).toBeCloseTo(60, 0);
  expect(moved.y - image.y).toBeCloseTo(40, 0);
  // `-` zooms back out; it never goes below fit.
  for (let i = 0; i < 12; i += 1) await page.keyboard.press('-');
  await expect(view.stage).toHaveAttribute('data-fit', 'true');
});

test('a click toggles fit and 100 %; the filmstrip and the arrows move; I folds the details away', async ({ page }) => {
  await page.goto(app.url);
  await new LibraryPage(page).open();
  const view = await openImage(page, ids['1:1'] ?? '');
  const { image } = await boxes(page);
  await page.mouse.click(image.x + image.width / 2, image.y + image.height / 2);
  await expect(view.stage).toHaveAttribute('data-scale', '1.0000');
  await page.mouse.click(image.x + image.width / 2, image.y + image.height / 2);
  await expect(view.stage).toHaveAttribute('data-fit', 'true');

  const strip = view.root.getByTestId('filmstrip-item');
  await expect(strip).toHaveCount(3);
  // The square one is the oldest, last in the list.
  await expect(view.position).toHaveText('3 of 3');
  await page.keyboard.press('ArrowLeft');
  await expect(view.position).toHaveText('2 of 3');
  await page.keyboard.press('ArrowRight');
  await expect(view.position).toHaveText('3 of 3');
  const other = strip.and(page.locator('[aria-current="false"]')).first();
  const index = Number(await other.getAttribute('data-index'));
  await other.click();
  await expect(view.position).toHaveText(new RegExp(`^${index + 1} of`));

  await expect(view.panel).toBeVisible();
  const narrow = (await view.stage.boundingBox())?.width ?? 0;
  await page.keyboard.press('i');
  await expect(view.panel).toBeHidden();
  await expect.poll(async () => (await view.stage.boundingBox())?.width ?? 0).toBeGreaterThan(narrow + 300);
  // The picture refits to the wider stage.
  const { image: wide, stage } = await boxes(page);
  expect(Math.abs(wide.x + wide.width / 2 - (stage.x + stage.width / 2))).toBeLessThan(1);
  await view.root.getByTestId('asset-details-toggle').click();
  await expect(view.panel).toBeVisible();
  // Newest first: 1 is the 21:9, 2 the 9:16.
  await strip.and(page.locator('[data-index="0"]')).click();
  await expect(view.position).toHaveText('1 of 3');
  await screenshotBothSchemes(page, 'viewer-landscape');
  await strip.and(page.locator('[data-index="1"]')).click();
  await expect(view.position).toHaveText('2 of 3');
  await expect.poll(() => view.image.evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
  await screenshotBothSchemes(page, 'viewer-portrait');
});
