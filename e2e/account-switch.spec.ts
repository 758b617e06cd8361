// An account switch is a clean slate (issue 29, item 1): demo → a real key → another key → the key
// removed, with the demo's trained model picked in Create image (one window) and a collection open
// with a tile selected in the Library (a second window of the same app). After each switch no view
// shows the previous account's models, collections or selection, no page throws, and the service is
// never asked for an id it did not give that key (its request log, through a logging door).
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { expect, test, type Page } from './fixtures/page-errors.ts';
import { startRequestLog, type RequestLog } from './fixtures/request-log.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { LibraryPage } from './pages/library-page.ts';
import { SettingsPage } from './pages/settings-page.ts';

const KEYS = { real: 'real-account-key', other: 'other-account-key' };

let app: RunningApp;
let emulator: RunningEmulator;
let log: RequestLog;

test.beforeAll(async () => {
  // Each key's account has a lived-in library of its own (its own images and trained models, its own ids).
  emulator = await startEmulator({ port: 0, apiKeys: Object.values(KEYS), demoLibrary: true });
  log = await startRequestLog(emulator.url, KEYS);
  app = await startBrowserModeApp([], { ATELIER_DEMO_LIBRARY: 'full' });
});

test.afterAll(async () => {
  await app?.stop();
  await log?.close();
  await emulator?.close();
});

/** The ids of the trained models Create image offers ("Your models"). */
const trainedChoices = (form: CreateImagePage): Promise<string[]> =>
  form.model
    .locator('option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter((v) => v.startsWith('mdl_')));

/** The ids of the trained models Create image lets one pick (ready ones). */
const usableModels = (form: CreateImagePage): Promise<string[]> =>
  form.model
    .locator('option:not([disabled])')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter((v) => v.startsWith('mdl_')));

async function enterKey(page: Page, key: string): Promise<void> {
  const settings = new SettingsPage(page);
  await page.getByTestId('nav-settings').click();
  await settings.editKey.click();
  await settings.baseUrl.fill(log.url);
  await settings.apiKey.fill(key);
  await settings.saveKey.click();
  await expect(settings.editKey).toHaveText(/Replace/);
}

test('an account switch leaves nothing of the previous account on any screen or request', async ({ page, context }) => {
  test.setTimeout(180_000);
  // Window 1: the demo, its trained model picked in Create image.
  await page.goto(app.url);
  await new FirstRunPage(page).chooseDemo.click();
  const window2 = await context.newPage();
  const create = new CreateImagePage(page);
  await page.getByTestId('nav-create-image').click();
  await expect.poll(() => trainedChoices(create), { timeout: 30_000 }).not.toEqual([]);
  const demoModels = await trainedChoices(create);
  const usable = await usableModels(create);
  const demoModel = usable[0] ?? '';
  expect(demoModel).not.toBe('');
  await create.chooseModel(demoModel);
  await expect(create.trainedSection).toBeVisible();

  // Window 2: the Library, the demo's "Coastlines" open and one tile selected.
  await window2.goto(`${app.url}#/library`);
  const library = new LibraryPage(window2);
  await library.root.waitFor();
  await library.collection('Coastlines').click();
  await expect(library.tiles.first()).toBeVisible({ timeout: 30_000 });
  await library.tiles.first().click();
  await expect(library.selectionCount).toHaveText('1 selected');

  /** Neither window shows the previous account's models, collections, selection or items. */
  const nothingOf = async (previous: { models: string[]; model: string; item: string | null }) => {
    await expect(library.collection('Coastlines')).toHaveCount(0);
    await expect(library.collection('Product shots')).toHaveCount(0);
    await expect(library.selectionBar).toBeHidden();
    await expect(create.model).not.toHaveValue(previous.model);
    await expect(create.trainedSection).toBeHidden();
    for (const id of previous.models) await expect(create.model.locator(`option[value="${id}"]`)).toHaveCount(0);
    if (previous.item) await expect(library.grid.locator(`[data-asset-id="${previous.item}"]`)).toHaveCount(0);
  };
  const demoItem = await library.tiles.first().getAttribute('data-asset-id');

  // Demo → the real key (entered in Settings of window 1; back to Create image after).
  await enterKey(page, KEYS.real);
  await page.getByTestId('nav-create-image').click();
  await nothingOf({ models: demoModels, model: demoModel, item: demoItem });
  await expect(create.model).toHaveValue('imagea');

  // In the real account: its own trained model picked, one of its own items selected in window 2.
  await expect.poll(() => usableModels(create), { timeout: 30_000 }).not.toEqual([]);
  const realModels = await trainedChoices(create);
  const realModel = (await usableModels(create))[0] ?? '';
  await create.chooseModel(realModel);
  await expect(create.trainedSection).toBeVisible();
  await expect(library.tiles.first()).toBeVisible({ timeout: 30_000 });
  await library.tiles.first().click();
  await expect(library.selectionCount).toHaveText('1 selected');
  const realItem = await library.tiles.first().getAttribute('data-asset-id');

  // The real key → another key of the same service: nothing of the first key's account stays.
  await enterKey(page, KEYS.other);
  await page.getByTestId('nav-create-image').click();
  await nothingOf({ models: realModels, model: realModel, item: realItem });
  await expect(create.model).toHaveValue('imagea');
  await expect(library.tiles.first()).toBeVisible({ timeout: 30_000 });

  // The key removed: both windows are back on the welcome screen, with nothing of any account.
  await page.getByTestId('nav-settings').click();
  const settings = new SettingsPage(page);
  await settings.removeKey.click();
  await settings.confirmRemove.click();
  await expect(new FirstRunPage(page).root).toBeVisible();
  await expect(new FirstRunPage(window2).root).toBeVisible();
  await expect(window2.getByTestId('selection-bar')).toHaveCount(0);

  // And back to the demo: its own collections are read again, nothing picked or selected from before.
  await new FirstRunPage(page).chooseDemo.click();
  await expect(library.collection('Coastlines')).toBeVisible({ timeout: 30_000 });
  await expect(library.selectionBar).toBeHidden();
  await page.getByTestId('nav-create-image').click();
  await expect(create.model).toHaveValue('imagea');
  await expect(create.trainedSection).toBeHidden();
  await expect.poll(() => trainedChoices(create), { timeout: 30_000 }).toEqual(demoModels);

  expect(log.requests.length).toBeGreaterThan(0);
  expect(log.unissued(), 'requests for ids the service never gave that key').toEqual([]);
  expect(log.requests.filter((r) => r.status === 404)).toEqual([]);
});
