// Ratings and flags (issue 32 item 1): keys rate and flag the focused tile or the whole selection in
// the grid, the shown asset in the viewer and the active side in compare, each change confirmed
// politely ("Rated 4 stars"); the sidebar's Picks and Rejected count them and go there; the Rating
// menu shows exactly the rated ones; keys typed into the search box mark nothing; 0 in the viewer
// clears the rating (Z still zooms).
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';

let app: RunningApp;

interface Counts {
  picks: number;
  rejects: number;
  byRating: number[];
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000);
  app = await demoAppWith(browser, [
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a heron at dawn', numImages: 3 } },
    { kind: 'image', body: { modelID: 'imageb', prompt: 'a paper boat on a pond', numImages: 3 } },
  ]);
});

test.afterAll(async () => {
  await app?.stop();
});

async function openLibrary(page: Page): Promise<LibraryPage> {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await expect(library.tiles).toHaveCount(6);
  return library;
}

const counts = (page: Page) => invokeInPage<Counts>(page, 'assets:counts', {});
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

test('keys rate and flag the focused tile and the selection; the sidebar counts; Rating filters exactly', async ({
  page,
}) => {
  const library = await openLibrary(page);
  const picks = library.sidebar.getByTestId('place-picks');
  const rejected = library.sidebar.getByTestId('place-rejected');
  await expect(picks).toContainText('0');
  await expect(rejected).toContainText('0');

  // Typed into the search box, the keys are text: nothing is marked.
  await library.search.fill('5p');
  await library.search.fill('');
  await expect(library.tiles).toHaveCount(6);
  expect(await counts(page)).toMatchObject({ picks: 0, rejects: 0, byRating: [6, 0, 0, 0, 0, 0] });

  await library.grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('4');
  await expect(library.tiles.nth(0)).toHaveAttribute('aria-label', /\(4 stars\)$/);
  await expect(toast(page, 'Rated 4 stars')).toBeVisible();
  await expect(toast(page, 'Rated 4 stars')).toHaveAttribute('role', 'status');

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('x');
  await expect(library.tiles.nth(1)).toHaveAttribute('aria-label', /\(rejected\)$/);
  await expect(toast(page, 'Rejected')).toBeVisible();
  await expect(rejected).toContainText('1');

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('p');
  await expect(picks).toContainText('1');
  await page.keyboard.press('u');
  await expect(picks).toContainText('0');
  await expect(library.tiles.nth(2)).not.toHaveAttribute('aria-label', /picked/);

  // The whole selection: three tiles, one key.
  await library.tiles.nth(2).click();
  await library.tiles.nth(4).click({ modifiers: ['Shift'] });
  await expect(library.selectionCount).toHaveText('3 selected');
  await page.keyboard.press('2');
  await expect(toast(page, 'Rated 2 stars: 3 items')).toBeVisible();
  for (const i of [2, 3, 4]) await expect(library.tiles.nth(i)).toHaveAttribute('aria-label', /\(2 stars\)$/);
  expect(await counts(page)).toMatchObject({ picks: 0, rejects: 1, byRating: [2, 0, 3, 0, 1, 0] });
  await page.keyboard.press('Escape');

  // Filtering by rating shows exactly the rated ones.
  const rating = page.getByRole('combobox', { name: 'Rating' });
  await rating.selectOption({ label: '★ 3 or more' });
  await expect(library.tiles).toHaveCount(1);
  await expect(library.tiles.nth(0)).toHaveAttribute('aria-label', /\(4 stars\)$/);
  await rating.selectOption({ label: '★ 2 or more' });
  await expect(library.tiles).toHaveCount(4);
  await rating.selectOption({ label: 'Any rating' });
  await expect(library.tiles).toHaveCount(6);

  // Rating, highest first.
  await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Rating, highest first' });
  await expect(library.tiles.nth(0)).toHaveAttribute('aria-label', /\(4 stars\)$/);
  await expect(library.tiles.nth(5)).not.toHaveAttribute('aria-label', /stars?\)/);

  // Rejected is a place: it shows the rejected one.
  await rejected.click();
  await expect(rejected).toHaveAttribute('aria-current', 'page');
  await expect(library.tiles).toHaveCount(1);
  await expect(library.tiles.nth(0)).toHaveAttribute('aria-label', /\(rejected\)$/);
});

test('in the viewer, keys and the star control mark the shown asset; 0 clears the rating, Z still zooms', async ({
  page,
}) => {
  const library = await openLibrary(page);
  const id = await library.tiles.nth(5).getAttribute('data-asset-id');
  await library.tiles.nth(5).dblclick();
  const view = new AssetViewPage(page);
  await expect(view.root).toBeVisible();
  const star = (n: number) => view.root.getByRole('radio', { name: n === 1 ? 'Rate 1 star' : `Rate ${n} stars` });
  const pick = view.root.getByRole('button', { name: 'Pick' });
  const reject = view.root.getByRole('button', { name: 'Reject' });

  await page.keyboard.press('3');
  await expect(star(3)).toHaveAttribute('aria-checked', 'true');
  await expect(toast(page, 'Rated 3 stars')).toBeVisible();
  await page.keyboard.press('p');
  await expect(pick).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('x');
  await expect(reject).toHaveAttribute('aria-pressed', 'true');
  await expect(pick).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('u');
  await expect(reject).toHaveAttribute('aria-pressed', 'false');

  await star(5).click();
  await expect(star(5)).toHaveAttribute('aria-checked', 'true');
  await pick.click();
  await expect(pick).toHaveAttribute('aria-pressed', 'true');

  await view.root.focus();
  const scale = await view.stage.getAttribute('data-scale');
  await page.keyboard.press('0');
  for (const n of [1, 2, 3, 4, 5]) await expect(star(n)).toHaveAttribute('aria-checked', 'false');
  await expect(toast(page, 'Rating cleared')).toBeVisible();
  expect(await view.stage.getAttribute('data-scale')).toBe(scale);
  await page.keyboard.press('z');
  await expect(view.stage).not.toHaveAttribute('data-scale', scale ?? '');

  await page.keyboard.press('Escape');
  await expect(view.root).toBeHidden();
  await expect(library.tile(id ?? '')).toHaveAttribute('aria-label', /\(picked\)$/);
  await expect(library.sidebar.getByTestId('place-picks')).toContainText('1');
});

test('in compare, keys mark the active side: the first at the start, then the one clicked', async ({ page }) => {
  const library = await openLibrary(page);
  await library.search.fill('boat');
  await expect(library.tiles).toHaveCount(3);
  const ids = await library.tiles.evaluateAll((els) => els.slice(0, 2).map((el) => el.getAttribute('data-asset-id')));
  const refs = ids.map((id) => ({ kind: 'image', id }));
  await invokeInPage(page, 'assets:mark', { assets: refs, rating: 0, flag: null });
  await library.tiles.nth(0).click();
  await library.tiles.nth(1).click({ modifiers: ['Shift'] });
  await page.getByTestId('bulk-compare').click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toBeVisible();
  await page.getByTestId('compare-mode-side').click();
  // The sides from left to right (the first is active at the start).
  const side = (i: number) => compare.getByTestId('compare-marks').nth(i);
  const order = await compare.getByTestId('compare-marks').evaluateAll((els) => els.map((el) => el.dataset['assetId']));

  await page.keyboard.press('1');
  await expect(side(0).getByRole('radio', { name: 'Rate 1 star' })).toHaveAttribute('aria-checked', 'true');
  await expect(side(1).getByRole('radio', { name: 'Rate 1 star' })).toHaveAttribute('aria-checked', 'false');

  await compare.getByTestId('compare-stage').nth(1).click();
  await page.keyboard.press('x');
  await expect(side(1).getByRole('button', { name: 'Reject' })).toHaveAttribute('aria-pressed', 'true');
  await expect(side(0).getByRole('button', { name: 'Reject' })).toHaveAttribute('aria-pressed', 'false');
  // What the core holds: the first side rated, the second rejected.
  const inOrder = order.map((id) => ({ kind: 'image', id }));
  const marks = await invokeInPage<{ previous: unknown[] }>(page, 'assets:mark', { assets: inOrder, rating: 1 });
  expect(marks).toMatchObject({
    previous: [
      { rating: 1, flag: null },
      { rating: 0, flag: 'reject' },
    ],
  });
});
