// Compare: two to four items from the Library's selection side by side with one zoom and pan for all;
// two as a before/after slider; an upscale opens beside its source in one action from the viewer;
// copy image puts a PNG on the clipboard; under each side its prompt and settings, the differences marked.
import { expect, test } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000);
  app = await demoAppWith(
    browser,
    [
      { kind: 'image', body: { modelID: 'imagea', prompt: 'an orange fox in the snow', numImages: 3 } },
      { kind: 'image', body: { modelID: 'imageb', prompt: 'a red barn', aspectRatio: '16:9' } },
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a lighthouse on a cliff, at dawn', numImages: 1 } },
      {
        kind: 'image',
        body: { modelID: 'imageb', prompt: 'a white lighthouse on a cliff at dusk', aspectRatio: '16:9', numImages: 1 },
      },
    ],
    { offline: 6 },
  );
  // An upscale of the barn, so the viewer offers "Compare with source".
  const page = await browser.newPage();
  await page.goto(app.url);
  const { items } = await invokeInPage<{ items: { id: string; prompt: string | null }[] }>(page, 'assets:list', {});
  const barn = items.find((item) => item.prompt === 'a red barn');
  await invokeInPage(page, 'jobs:submit', { kind: 'upscale', body: { imageID: barn?.id } });
  await expect
    .poll(async () => (await invokeInPage<{ offline: number }>(page, 'assets:counts', {})).offline, { timeout: 60_000 })
    .toBe(7);
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
});

test('three selected items side by side: one zoom and pan for all', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await library.search.fill('fox');
  await expect(library.tiles).toHaveCount(3);
  await library.tiles.nth(0).click();
  await library.tiles.nth(1).click({ modifiers: ['Shift'] });
  await library.tiles.nth(2).click({ modifiers: ['Shift'] });
  await expect(library.selectionCount).toHaveText('3 selected');
  await page.getByTestId('bulk-compare').click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toBeVisible();
  await expect(compare).toHaveAttribute('data-mode', 'side');
  const stages = compare.getByTestId('compare-stage');
  await expect(stages).toHaveCount(3);
  for (let i = 0; i < 3; i += 1) await expect(stages.nth(i)).toHaveAttribute('data-fit', 'true');

  // Zooming one pane zooms them all, relative to each picture's fit; panning one pans them all.
  const box = await stages.nth(1).boundingBox();
  if (!box) throw new Error('no pane');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await expect(stages.nth(1)).toHaveAttribute('data-fit', 'false');
  const scales = async () =>
    Promise.all([0, 1, 2].map(async (i) => Number(await stages.nth(i).getAttribute('data-scale'))));
  await expect.poll(async () => new Set((await scales()).map((s) => s.toFixed(3))).size).toBe(1);
  const images = compare.getByTestId('compare-image');
  const before = await images.nth(0).boundingBox();
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30, { steps: 4 });
  await page.mouse.up();
  const after = await images.nth(0).boundingBox();
  expect((after?.x ?? 0) - (before?.x ?? 0)).toBeCloseTo(40, 0);
  expect((after?.y ?? 0) - (before?.y ?? 0)).toBeCloseTo(30, 0);
  await page.keyboard.press('z');
  for (let i = 0; i < 3; i += 1) await expect(stages.nth(i)).toHaveAttribute('data-fit', 'true');
  await screenshotBothSchemes(page, 'compare-side-by-side');
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();
  await expect(library.selectionCount).toHaveText('3 selected');
});

test('an upscale opens beside its source as a before/after slider, from the viewer', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.open();
  await library.search.fill('barn');
  await expect(library.tiles).toHaveCount(2);
  const { items } = await invokeInPage<{ items: { id: string; sourceAssetId: string | null }[] }>(
    page,
    'assets:list',
    {},
  );
  const upscale = items.find((item) => item.sourceAssetId !== null);
  await library.tile(upscale?.id ?? '').dblclick();
  await view.root.getByTestId('asset-compare-upscale').click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toHaveAttribute('data-mode', 'slider');
  const stages = compare.getByTestId('compare-stage');
  await expect(stages).toHaveCount(2);
  // Both pictures fill the same box: the before and the after line up.
  const images = compare.getByTestId('compare-image');
  await expect.poll(async () => (await images.nth(0).boundingBox())?.width ?? 0).toBeGreaterThan(100);
  const misalignment = async () => {
    const [a, b] = [await images.nth(0).boundingBox(), await images.nth(1).boundingBox()];
    return Math.max(
      Math.abs((a?.x ?? 0) - (b?.x ?? 0)),
      Math.abs((a?.y ?? 0) - (b?.y ?? 0)),
      Math.abs((a?.width ?? 0) - (b?.width ?? 0)),
    );
  };
  await expect.poll(misalignment).toBeLessThan(1);
  // Zoomed, they stay aligned.
  const area = await compare.getByTestId('compare-slider').boundingBox();
  await page.mouse.move((area?.x ?? 0) + 200, (area?.y ?? 0) + 200);
  await page.mouse.wheel(0, -200);
  await expect(stages.first()).toHaveAttribute('data-fit', 'false');
  await expect.poll(misalignment).toBeLessThan(1);
  const divider = compare.getByTestId('compare-divider');
  await expect(divider).toHaveAttribute('aria-valuenow', '50');
  await divider.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(divider).toHaveAttribute('aria-valuenow', '45');
  await compare.getByRole('button', { name: 'Fit (Z)' }).click();
  await expect(stages.first()).toHaveAttribute('data-fit', 'true');
  await screenshotBothSchemes(page, 'compare-slider');
  await compare.getByTestId('compare-mode-side').click();
  await expect(compare).toHaveAttribute('data-mode', 'side');
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();
  // Back in the viewer it came from.
  await expect(view.root).toBeVisible();
});

test('Ctrl+C in the viewer puts the image on the clipboard as a PNG', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await library.search.fill('fox');
  await library.tiles.first().dblclick();
  const view = new AssetViewPage(page);
  await expect(view.image).toBeVisible();
  await page.keyboard.press('Control+c');
  await expect(page.getByTestId('toast').filter({ hasText: 'Image copied' })).toBeVisible();
  const types = await page.evaluate(async () => (await navigator.clipboard.read()).flatMap((item) => item.types));
  expect(types).toContain('image/png');
});

test('under each side its prompt and settings, what differs marked in words', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await library.search.fill('lighthouse');
  await expect(library.tiles).toHaveCount(2);
  const { items } = await invokeInPage<{ items: { id: string; prompt: string | null }[] }>(page, 'assets:list', {});
  const dawn = items.find((item) => item.prompt === 'a lighthouse on a cliff, at dawn');
  const dusk = items.find((item) => item.prompt === 'a white lighthouse on a cliff at dusk');
  // Selected in this order: dawn is the left (the reference), dusk the right.
  await library.tile(dawn?.id ?? '').click();
  await library.tile(dusk?.id ?? '').click({ modifiers: ['Control'] });
  await expect(library.selectionCount).toHaveText('2 selected');
  await page.getByTestId('bulk-compare').click();
  const compare = page.getByRole('dialog', { name: 'Compare 2 items' });
  await expect(compare).toBeVisible();

  const left = compare.getByRole('region', { name: 'Left: prompt and settings' });
  const right = compare.getByRole('region', { name: 'Right: prompt and settings' });
  // The right's words the left lacks are insertions; the left's words it lacks are deletions, inline.
  await expect(right.getByRole('insertion')).toHaveText(['added: white', 'added: dusk']);
  await expect(right.getByRole('deletion')).toHaveText(['removed: ,', 'removed: dawn']);
  // The left (the reference) shows the words the right lost, and nothing added.
  await expect(left.getByRole('deletion')).toHaveText(['removed: ,', 'removed: dawn']);
  await expect(left.getByRole('insertion')).toHaveCount(0);
  // Its text is its own prompt; a screen reader hears "removed:" before each deletion.
  await expect(left.getByTestId('compare-prompt')).toHaveText('a lighthouse on a cliffremoved: , at removed: dawn');
  // Unmarked words are read as they are.
  await expect(right.getByTestId('compare-prompt')).toContainText('lighthouse on a cliff');

  // Settings row by row, by name: the model differs, the count is the same, the aspect ratio only on the right.
  const row = (side: typeof left, label: string) =>
    side
      .getByTestId('compare-setting')
      .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) });
  await expect(row(left, 'Model')).toContainText('Image A');
  await expect(row(left, 'Model')).toContainText('differs');
  await expect(row(right, 'Model')).toContainText('Image B');
  await expect(row(right, 'Model')).toContainText('differs');
  await expect(row(right, 'Images')).toHaveText(/^Images\s*1\s*$/);
  await expect(row(right, 'Aspect ratio')).toContainText('only here');
  await expect(row(left, 'Aspect ratio')).toContainText('not set');

  // I hides them and shows them again; the button says whether they are shown.
  const toggle = compare.getByRole('button', { name: 'Prompts and settings' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('i');
  await expect(right).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(right).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();
});
