// Settings travel with the file: a downloaded PNG dropped on Create image restores its prompt, model
// and options; a Create result has the same context menu as a Library tile.
import { expect, test } from './fixtures/page-errors.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { generateAndWait, invokeInPage } from './pages/contract-client.ts';

let app: RunningApp;
const PROMPT = 'a glass lighthouse on a basalt cliff';
const REQUEST = {
  modelID: 'imagec-2',
  prompt: PROMPT,
  aspectRatio: '3:2',
  numImages: 1,
  options: { imagec: { outputFormat: 'png', quality: 'high', imageSize: '1K' } },
};

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  app = await startBrowserModeApp(['--demo']);
  const page = await browser.newPage();
  await page.goto(app.url);
  await generateAndWait(page, [{ kind: 'image', body: REQUEST }]);
  await expect
    .poll(async () => (await invokeInPage<{ offline: number }>(page, 'assets:counts', {})).offline, { timeout: 30_000 })
    .toBe(1);
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
});

test('a downloaded PNG dropped on Create image restores its prompt, model and options', async ({ page }) => {
  await page.goto(app.url);
  await page.getByTestId('nav-create-image').click();
  const view = page.getByTestId('view-create-image');
  await expect(view).toBeVisible();
  await expect(page.getByTestId('field-prompt').getByRole('textbox')).toHaveValue('');

  const list = await invokeInPage<{ items: { file: { localUrl: string | null; thumbPath: string | null } }[] }>(
    page,
    'assets:list',
    {},
  );
  const url = list.items[0]?.file.localUrl ?? '';
  expect(url).not.toBe('');
  // Wait until the settings are in the file (they go in right after the download, before the thumbnail).
  await expect
    .poll(async () => (await invokeInPage<typeof list>(page, 'assets:list', {})).items[0]?.file.thumbPath ?? null)
    .not.toBeNull();

  const transfer = await page.evaluateHandle(async (src) => {
    const bytes = await (await fetch(src)).arrayBuffer();
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'lighthouse.png', { type: 'image/png' }));
    return data;
  }, url);
  const target = view.getByRole('region', { name: 'Results' });
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer: transfer });
  await transfer.dispose();

  await expect(page.getByTestId('toast').filter({ hasText: 'Settings restored from lighthouse.png' })).toBeVisible();
  await expect(page.getByTestId('field-prompt').getByRole('textbox')).toHaveValue(PROMPT);
  await expect(page.getByTestId('field-aspectRatio').getByRole('radio', { name: /3:2/ })).toBeChecked();
  await expect(page.getByTestId('field-modelID').getByRole('combobox')).toHaveValue('imagec-2');
});

test('a Create result opens the same context menu as a Library tile', async ({ page }) => {
  await page.goto(app.url);
  await page.getByTestId('nav-create-image').click();
  const result = page.getByTestId('result-open').first();
  await expect(result).toBeVisible();
  await result.click({ button: 'right' });
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitemcheckbox', { name: /Add to Favourites/ })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Remix' })).toBeVisible();
  await menu.getByRole('menuitemcheckbox', { name: /Add to Favourites/ }).click();
  await expect(menu).toHaveCount(0);
  await expect
    .poll(async () => (await invokeInPage<{ favorites: number }>(page, 'assets:counts', {})).favorites)
    .toBe(1);
  await result.focus();
  await page.keyboard.press('Shift+F10');
  await expect(menu.getByRole('menuitemcheckbox', { name: /Remove from Favourites/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
});
