// Organising the library: favourites by mouse and F (kept through a reload and with the service gone),
// uploads apart from results (grid, Create's strip) under their model's name, collections made by drag,
// menu and key with a smart collection from search + filter (counts right, after a restart, exported with
// sidecars), a selection that says what the filters hide, the context menu by keyboard, and the date
// popover inside a 1024 px window. The tests run in order on one account; the last one stops the service.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './fixtures/page-errors.ts';
import { repoRoot, startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { startEmulatorProcess, type EmulatorProcess } from './fixtures/emulator-process.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { generateAndWait, invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';

const KEY = 'demo-key';
let emulator: EmulatorProcess;
let app: RunningApp;
let uploadIds: string[] = [];

interface Counts {
  total: number;
  favorites: number;
  offline: number;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  emulator = await startEmulatorProcess(['--time-scale', '20', '--api-key', KEY]);
  app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl: emulator.url } }));
  });
  const page = await browser.newPage();
  await page.goto(app.url);
  await generateAndWait(page, [
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a zebra grazing in a misty meadow', numImages: 2 } },
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a copper teapot on a marble table', numImages: 2 } },
    { kind: 'image', body: { modelID: 'imageb', prompt: 'a lighthouse in a winter storm', numImages: 2 } },
  ]);
  await expect
    .poll(async () => (await invokeInPage<Counts>(page, 'assets:counts', {})).offline, { timeout: 60_000 })
    .toBe(6);
  // A model of one's own with two training photos: uploads, kept apart from results.
  const model = await invokeInPage<{ id: string }>(page, 'models:create', { label: 'Portrait model' });
  await invokeInPage(page, 'uploads:add', {
    modelID: model.id,
    type: 'modelInput',
    files: ['photo-01.jpg', 'photo-02.jpg'].map((name) => ({
      name,
      bytesBase64: readFileSync(join(repoRoot, 'e2e/fixtures/photos', name)).toString('base64'),
    })),
  });
  await expect
    .poll(async () => (await invokeInPage<Counts>(page, 'assets:counts', { origin: 'uploaded' })).total, {
      timeout: 30_000,
    })
    .toBe(2);
  const uploads = await invokeInPage<{ items: { id: string }[] }>(page, 'assets:list', {
    filter: { origin: 'uploaded' },
  });
  uploadIds = uploads.items.map((item) => item.id);
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
  await emulator?.stop();
});

async function openLibrary(page: Page): Promise<LibraryPage> {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await expect(library.tiles).toHaveCount(6);
  return library;
}

test('training photos stay out of the results and the reference strip; Uploads shows them by model', async ({
  page,
}) => {
  const library = await openLibrary(page);
  for (const id of uploadIds) await expect(library.tile(id)).toHaveCount(0);
  await expect(library.place('results')).toContainText('6');
  await expect(library.place('uploads')).toContainText('2');

  await library.place('uploads').click();
  const group = page.getByTestId('uploads-group');
  await expect(group).toHaveCount(1);
  await expect(group.getByTestId('uploads-model-name')).toHaveText('Portrait model');
  const tiles = group.getByTestId('upload-tile');
  await expect(tiles).toHaveCount(2);
  const names = await tiles.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')).sort());
  expect(names).toEqual(['Portrait model · photo-01.jpg', 'Portrait model · photo-02.jpg']);

  await page.getByTestId('nav-create-image').click();
  const picks = page.getByTestId('library-pick');
  await expect(picks).toHaveCount(6);
  const pickLabels = await picks.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
  expect(pickLabels.every((label) => !/img_/.test(label))).toBe(true);
  // Asked for, they come in.
  await page.getByTestId('library-strip-uploads').getByRole('checkbox').check();
  await expect(picks).toHaveCount(8);
  await page.getByTestId('library-strip-uploads').getByRole('checkbox').uncheck();
  await expect(picks).toHaveCount(6);
});

test('star with the mouse and with F; Favourites lists them after a reload', async ({ page }) => {
  const library = await openLibrary(page);
  const first = library.tiles.nth(0);
  await first.hover();
  await first.getByTestId('tile-star').click();
  await expect(first.getByTestId('tile-star')).toHaveAttribute('data-on', 'true');

  await library.grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('f');
  await expect(library.tiles.nth(1).getByTestId('tile-star')).toHaveAttribute('data-on', 'true');
  await expect(page.getByTestId('filter-favorites')).toContainText('Favourites 2');
  // The service reports no likes here: no dead "Liked" control.
  await expect(page.getByTestId('filter-liked')).toHaveCount(0);

  await page.reload();
  await library.open();
  await library.place('favorites').click();
  await expect(library.tiles).toHaveCount(2);
  await expect(library.place('favorites')).toContainText('2');

  // In the viewer, F stars an image too (and again takes it away).
  const view = new AssetViewPage(page);
  await library.tiles.nth(0).dblclick();
  await expect(view.root).toBeVisible();
  await expect(page.getByTestId('viewer-star')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('f');
  await expect(page.getByTestId('viewer-star')).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('f');
  await expect(page.getByTestId('viewer-star')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await expect(view.root).toHaveCount(0);
  await expect(library.tiles).toHaveCount(2);
});

test('collections: by drag, menu and key; a smart collection from search + filter; after a restart; exported', async ({
  page,
}) => {
  let library = await openLibrary(page);
  await page.getByTestId('collection-new').click();
  await library.giveName('Trip');
  const trip = library.collection('Trip');
  await expect(trip.getByTestId('collection-count')).toHaveText('0');

  // Back to all results (a new collection opens empty).
  await library.place('results').click();
  await expect(library.tiles).toHaveCount(6);
  const ids = await library.tiles.evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('data-asset-id')));

  // 1. Drag a tile onto the collection.
  await library.tiles.nth(0).dragTo(trip);
  await expect(trip.getByTestId('collection-count')).toHaveText('1');

  // 2. Right-click → Add to collection → Trip.
  await library.tiles.nth(1).click({ button: 'right' });
  await expect(library.menu).toBeVisible();
  await library.menuItem('Add to collection').click();
  await library.menuItem('Trip').click();
  await expect(library.menu).toHaveCount(0);
  await expect(trip.getByTestId('collection-count')).toHaveText('2');

  // 3. The C key on the focused tile.
  await library.grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await page.keyboard.press('c');
  await expect(library.menu).toBeVisible();
  await expect(library.menuItem('Trip')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(trip.getByTestId('collection-count')).toHaveText('3');

  // An item may sit in several collections.
  await page.getByTestId('collection-new').click();
  await library.giveName('Best');
  await library.place('results').click();
  await library.tiles.nth(0).dragTo(library.collection('Best'));
  await expect(library.collection('Best').getByTestId('collection-count')).toHaveText('1');

  await trip.getByRole('button', { name: /Trip/ }).first().click();
  await expect(library.tiles).toHaveCount(3);
  expect((await library.tiles.evaluateAll((els) => els.map((el) => el.getAttribute('data-asset-id')))).sort()).toEqual(
    [...ids].sort(),
  );

  // A smart collection: a search and a filter, saved. The word searched is one of a favourite's prompt.
  await library.place('favorites').click();
  await expect(library.tiles).toHaveCount(2);
  const label = (await library.tiles.first().getAttribute('aria-label')) ?? '';
  const word = /: a ([a-z]+)/.exec(label)?.[1] ?? '';
  expect(['zebra', 'teapot', 'lighthouse']).toContain(word);
  await library.place('results').click();
  await library.search.fill(word);
  await expect(library.tiles).toHaveCount(2);
  await page.getByTestId('filter-favorites').click();
  await expect(library.grid).toHaveAttribute('data-complete', 'true');
  const starred = await library.tiles.count();
  expect(starred).toBeGreaterThan(0);
  await page.getByTestId('save-search').click();
  await library.giveName('Starred search');
  const smart = library.collection('Starred search');
  await expect(smart).toHaveAttribute('data-smart', 'true');
  await expect(smart.getByTestId('collection-count')).toHaveText(String(starred));
  await library.search.fill('');
  await library.place('results').click();
  await smart
    .getByRole('button', { name: /Starred search/ })
    .first()
    .click();
  await expect(library.search).toHaveValue(word);
  await expect(page.getByTestId('filter-favorites')).toHaveAttribute('aria-pressed', 'true');
  await expect(smart.getByRole('button', { name: /Starred search/ }).first()).toHaveAttribute('aria-current', 'page');

  // Images + Offline, chosen in that order, saved: opened again it is the current place (it never was
  // while the side bar compared its own ordering of the saved search).
  await library.search.fill('');
  await library.place('results').click();
  await page.getByTestId('filter-offline').click();
  await library.filterKind(/Images/);
  await page.getByTestId('save-search').click();
  await library.giveName('Offline images');
  const offlineImages = library
    .collection('Offline images')
    .getByRole('button', { name: /Offline images/ })
    .first();
  await expect(offlineImages).toHaveAttribute('aria-current', 'page');
  await library.place('results').click();
  await expect(offlineImages).not.toHaveAttribute('aria-current', 'page');
  await offlineImages.click();
  await expect(offlineImages).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('filter-offline')).toHaveAttribute('aria-pressed', 'true');

  // After a restart, all of it is still there.
  app = await app.restart();
  library = await openLibrary(page);
  await expect(library.collection('Trip').getByTestId('collection-count')).toHaveText('3');
  await expect(library.collection('Best').getByTestId('collection-count')).toHaveText('1');
  await expect(library.collection('Starred search').getByTestId('collection-count')).toHaveText(String(starred));
  await expect(library.place('favorites')).toContainText('2');

  // Export: the collection's files with their sidecars, in a folder named after it.
  const folder = mkdtempSync(join(tmpdir(), 'atelier-collection-'));
  try {
    await library.collection('Trip').hover();
    await library.collection('Trip').getByTestId('collection-more').click();
    await library.menuItem(/Export/).click();
    await library.exportFolder.fill(folder);
    await library.exportDialog.getByTestId('export-confirm').click();
    await expect(library.exportDialog).toHaveCount(0);
    const files = readdirSync(join(folder, 'Trip'));
    const sidecars = files.filter((name) => name.endsWith('.json'));
    expect(sidecars).toHaveLength(3);
    expect(files).toHaveLength(6);
    const sidecar = JSON.parse(readFileSync(join(folder, 'Trip', sidecars[0] ?? ''), 'utf8')) as { prompt?: string };
    expect(sidecar.prompt).toBeTruthy();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a collection is renamed and deleted from its menu; its items stay in the library', async ({ page }) => {
  const library = await openLibrary(page);
  const best = library.collection('Best');
  await best.hover();
  await best.getByTestId('collection-more').click();
  await library.menuItem('Rename…').click();
  await library.giveName('Best of the week');
  const renamed = library.collection('Best of the week');
  await expect(renamed.getByTestId('collection-count')).toHaveText('1');
  await renamed
    .getByRole('button', { name: /Best of the week/ })
    .first()
    .click({ button: 'right' });
  await library.menuItem('Delete collection').click();
  const confirm = page.getByTestId('confirm-delete-collection');
  await expect(confirm).toContainText('the items in it stay in your library');
  await confirm.getByTestId('confirm-delete').click();
  await expect(renamed).toHaveCount(0);
  await expect(library.collection('Trip')).toHaveCount(1);
  await library.place('results').click();
  await expect(library.tiles).toHaveCount(6);
});

test('a selection hidden by filters is kept and said; bulk actions name their count; Esc clears', async ({ page }) => {
  const library = await openLibrary(page);
  const zebra = library.grid.locator('[data-testid="asset-tile"][aria-label*="zebra"]');
  const teapot = library.grid.locator('[data-testid="asset-tile"][aria-label*="teapot"]');
  await zebra.first().click();
  await teapot.first().click({ modifiers: ['ControlOrMeta'] });
  await expect(library.selectionCount).toHaveText('2 selected');
  await library.search.fill('zebra');
  await expect(library.tiles).toHaveCount(2);
  await expect(library.selectionCount).toHaveText('2 selected, 1 hidden by filters');
  await expect(page.getByTestId('bulk-delete-remote')).toHaveText(/Delete 2 on service…/);
  await expect(page.getByTestId('bulk-download')).toHaveText(/Downloaded/);
  await expect(page.getByTestId('bulk-export')).toHaveText(/Export 2/);
  await library.grid.focus();
  await page.keyboard.press('Escape');
  await expect(library.selectionBar).toHaveCount(0);
});

test('the context menu by keyboard: Shift+F10 on a tile, arrows, Esc; the date popover stays in a 1024 px window', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const library = await openLibrary(page);
  await library.grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+F10');
  await expect(library.menu).toBeVisible();
  await expect(library.menuItem('Open')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(library.menuItem(/Favourites/)).toBeFocused();
  for (const name of ['Copy prompt', 'Show in folder', 'Remix', 'Upscale', 'Use as reference image']) {
    await expect(library.menuItem(name)).toBeVisible();
  }
  await expect(library.menuItem(/Delete on the service/)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(library.menu).toHaveCount(0);
  await expect(library.grid).toBeFocused();

  // Delete on the service asks first.
  await library.tiles.nth(5).click({ button: 'right' });
  await library.menuItem(/Delete on the service/).click();
  await expect(library.confirmDialog('delete-remote')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(library.confirmDialog('delete-remote')).toHaveCount(0);
  await expect(library.tiles).toHaveCount(6);

  const toolbar = await page.getByTestId('library-toolbar').boundingBox();
  const sort = await page.getByTestId('library-sort').boundingBox();
  const search = await library.search.boundingBox();
  // Sort stays on the first row, at the right.
  expect(Math.abs((sort?.y ?? 0) - (search?.y ?? 0))).toBeLessThan(8);
  expect((sort?.x ?? 0) + (sort?.width ?? 0)).toBeLessThanOrEqual((toolbar?.x ?? 0) + (toolbar?.width ?? 0));
  await page.getByTestId('filter-dates').click();
  const panel = await page.getByTestId('filter-date-panel').boundingBox();
  expect(panel).not.toBeNull();
  expect((panel?.x ?? 0) + (panel?.width ?? 0)).toBeLessThanOrEqual(1024);
  expect(panel?.x ?? -1).toBeGreaterThanOrEqual(0);
});

test('favourites are there offline', async ({ page }) => {
  await emulator.stop();
  const library = new LibraryPage(page);
  await page.goto(app.url);
  await library.open();
  await library.place('favorites').click();
  await expect(library.tiles).toHaveCount(2);
  for (const tile of await library.tiles.all()) {
    await expect(tile.getByTestId('tile-star')).toHaveAttribute('data-on', 'true');
  }
});
