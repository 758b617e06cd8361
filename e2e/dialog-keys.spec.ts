// Dialogs with a text field take what the user types at once: the first field has the focus when the
// dialog opens, Enter runs the dialog's primary action, and an empty name says why it cannot be saved
// (next to the field, tied to it for screen readers) and creates nothing. Walked from every place a
// name is asked for: the Library sidebar's "+", the context menu's and the viewer's "New collection…",
// a collection's Rename, and New model.
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';
import { ModelsPage } from './pages/models-page.ts';

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  app = await demoAppWith(browser, [
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a heron at dawn', numImages: 2 } },
  ]);
});

test.afterAll(async () => {
  await app?.stop();
});

interface CollectionLike {
  id: string;
  name: string;
  count: number;
}

const collectionNames = async (page: Page): Promise<string[]> =>
  (await invokeInPage<CollectionLike[]>(page, 'collections:list')).map((c) => c.name);

async function openLibrary(page: Page): Promise<LibraryPage> {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await expect(library.tiles).toHaveCount(2);
  return library;
}

test('sidebar "+": the name field has the focus; typing a name and Enter creates the collection', async ({ page }) => {
  const library = await openLibrary(page);
  await library.sidebar.getByTestId('collection-new').click();
  const name = library.nameDialog.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeFocused();
  await page.keyboard.type('Herons');
  await page.keyboard.press('Enter');
  await expect(library.nameDialog).toHaveCount(0);
  await expect(library.collection('Herons')).toHaveCount(1);
  expect(await collectionNames(page)).toContain('Herons');
});

test('an empty name says why nothing was created, next to the field; Enter and Save both say it', async ({ page }) => {
  const library = await openLibrary(page);
  const before = await collectionNames(page);
  await library.sidebar.getByTestId('collection-new').click();
  const name = library.nameDialog.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeFocused();
  // No reproach before the user has tried.
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');

  await page.keyboard.press('Enter');
  await expect(library.nameDialog).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(/name/i);
  const error = library.nameDialog.locator('[data-role="field-error"]');
  await expect(error).toBeVisible();
  await expect(error).toContainText(/name/i);
  await expect(name).toBeFocused();

  // Spaces only are no name either; the Save button stays pressable and says the same.
  await page.keyboard.type('   ');
  const save = library.nameDialog.getByTestId('collection-name-save');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(library.nameDialog).toBeVisible();
  await expect(error).toBeVisible();
  expect(await collectionNames(page)).toEqual(before);

  // Typing a name clears the complaint; Esc leaves without creating anything.
  await name.fill('x');
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');
  await expect(library.nameDialog).toHaveCount(0);
  expect(await collectionNames(page)).toEqual(before);
});

test('context menu "New collection…": type a name, Enter → the collection exists with the item in it', async ({
  page,
}) => {
  const library = await openLibrary(page);
  const tile = library.tiles.first();
  await tile.click({ button: 'right' });
  await library.menuItem('Add to collection').click();
  await library.menuItem('New collection…').click();
  await expect(library.nameDialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('From the menu');
  await page.keyboard.press('Enter');
  await expect(library.nameDialog).toHaveCount(0);
  await expect(library.collection('From the menu').getByTestId('collection-count')).toHaveText('1');
});

test('viewer "New collection…": type a name, Enter → the collection exists with the shown item', async ({ page }) => {
  const library = await openLibrary(page);
  const view = new AssetViewPage(page);
  await library.tiles.first().dblclick();
  await expect(view.root).toBeVisible();
  await page.keyboard.press('c');
  await expect(library.menu).toBeVisible();
  await library.menuItem('New collection…').click();
  await expect(library.nameDialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('From the viewer');
  await page.keyboard.press('Enter');
  await expect(library.nameDialog).toHaveCount(0);
  // The viewer is still there, and the collection holds the item.
  await expect(view.root).toBeVisible();
  await expect
    .poll(
      async () =>
        (await invokeInPage<CollectionLike[]>(page, 'collections:list')).find((c) => c.name === 'From the viewer')
          ?.count,
    )
    .toBe(1);
});

test('Rename: the field has the focus with the old name selected; Enter renames', async ({ page }) => {
  const library = await openLibrary(page);
  await library.sidebar.getByTestId('collection-new').click();
  await library.giveName('Old name');
  await library.collection('Old name').getByTestId('collection-more').click();
  await library.menuItem(/Rename/).click();
  const name = library.nameDialog.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeFocused();
  await expect(name).toHaveValue('Old name');
  await page.keyboard.type('New name');
  await page.keyboard.press('Enter');
  await expect(library.collection('New name')).toHaveCount(1);
  await expect(library.collection('Old name')).toHaveCount(0);
});

test('New model: the Name field has the focus; typing a name and Enter creates the model', async ({ page }) => {
  await page.goto(app.url);
  const models = new ModelsPage(page);
  await page.getByTestId('nav-models').click();
  await models.newModel.click();
  await expect(models.createDialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('Typed at once');
  await page.keyboard.press('Enter');
  await expect(models.createDialog).toHaveCount(0);
  await expect(models.row('Typed at once')).toHaveCount(1);
});

/** Presses Tab (or Shift+Tab) `times` times; after each press the focus must still be inside `testid`. */
async function tabStaysInside(page: Page, testid: string, key: 'Tab' | 'Shift+Tab', times: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < times; i += 1) {
    await page.keyboard.press(key);
    const at = await page.evaluate((id) => {
      const el = document.activeElement;
      const inside = !!el?.closest(`[data-testid="${id}"]`);
      return inside ? (el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? el?.tagName ?? '') : null;
    }, testid);
    expect(at, `${key} press ${i + 1} left the dialog`).not.toBeNull();
    seen.push(at ?? '');
  }
  return seen;
}

test('a dialog keeps Tab and Shift+Tab inside: from its last control to its first and back', async ({ page }) => {
  const library = await openLibrary(page);
  await library.sidebar.getByTestId('collection-new').click();
  const name = library.nameDialog.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeFocused();
  // Close, the field, Cancel, Create: more presses than stops, so each way wraps at least once.
  const forward = await tabStaysInside(page, 'collection-name-dialog', 'Tab', 6);
  expect(forward).toContain('Close');
  await name.focus();
  await tabStaysInside(page, 'collection-name-dialog', 'Shift+Tab', 6);
  await page.keyboard.press('Escape');
  await expect(library.nameDialog).toHaveCount(0);
});

test('compare keeps Tab and Shift+Tab inside its full-screen view', async ({ page }) => {
  const library = await openLibrary(page);
  await library.tiles.nth(0).click();
  await library.tiles.nth(1).click({ modifiers: ['Shift'] });
  await expect(library.selectionCount).toHaveText('2 selected');
  await page.getByTestId('bulk-compare').click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toBeVisible();
  const stops = await compare.evaluate(
    (root) =>
      [...root.querySelectorAll('button:not(:disabled), [tabindex]:not([tabindex="-1"])')].filter(
        (el) => el.closest('dialog') === root,
      ).length,
  );
  expect(stops).toBeGreaterThan(1);
  const forward = await tabStaysInside(page, 'compare-view', 'Tab', stops + 2);
  expect(new Set(forward).size).toBeGreaterThan(1);
  await tabStaysInside(page, 'compare-view', 'Shift+Tab', stops + 2);
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();
});
