// Keys that never spend by accident: Enter in a one-line field (the preset search, JPEG compression)
// sends nothing; Ctrl+Enter generates from anywhere in the form, once; the preset dialog owns its keys;
// a skip link leads to Generate. The emulator runs in this process so its request counts can be read.
import { expect, imageGenerations as generations, serviceTest as test } from './fixtures/service-account.ts';
import { CreateImagePage } from './pages/create-image-page.ts';

test('Enter in the preset search and in JPEG compression sends nothing; Ctrl+Enter sends one', async ({
  page,
  signIn,
  emulator,
}) => {
  await signIn();
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();
  await expect(form.generate).toContainText(/Ctrl\+↵|⌘↵/);
  await expect(form.generate).toHaveAttribute('aria-keyshortcuts', /Enter/);

  await form.prompt.fill('a lighthouse at dusk');
  await expect(form.generate).toBeEnabled();
  emulator.control.resetStats();

  // The preset dialog: typing filters, arrows move, Enter picks — and only picks.
  const dialog = page.getByTestId('preset-dialog');
  await form.field('preset').getByRole('button', { name: 'Choose a preset…' }).click();
  const search = dialog.getByLabel('Search presets');
  await expect(search).toBeFocused();
  const options = dialog.getByTestId('preset-option');
  const second = ((await options.nth(1).locator('span').first().textContent()) ?? '').trim();
  await search.press('ArrowDown');
  await expect(options.nth(1)).toHaveClass(/active/);
  await search.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(form.field('preset')).toContainText(second);

  await form.field('preset').getByRole('button', { name: second }).click();
  await search.fill(second.slice(0, 5));
  await search.press('Enter');
  await expect(dialog).toHaveCount(0);

  // A one-line field of the form: Enter does nothing.
  await form.chooseModel('imagec-2');
  const compression = form.field('outputCompression').getByRole('textbox');
  await compression.fill('80');
  await compression.press('Enter');
  await form.field('referenceImageURLs').getByRole('textbox').fill('https://images.example.com/a.png');
  await form.field('referenceImageURLs').getByRole('textbox').press('Enter');
  await expect(form.listItems('referenceImageURLs')).toHaveCount(1);
  await page.waitForTimeout(1_000);
  expect(generations(emulator), 'Enter in a field sent a generation').toBe(0);
  await expect(form.root.getByTestId('result-job')).toHaveCount(0);

  // Ctrl+Enter from a one-line field generates, once.
  await compression.press('Control+Enter');
  await expect(form.root.getByTestId('result-job')).toHaveCount(1);
  await expect.poll(() => generations(emulator)).toBe(1);
  await page.waitForTimeout(500);
  expect(generations(emulator)).toBe(1);
});

test('the skip link leads to Generate, or to the reason it is disabled', async ({ page, signIn }) => {
  await signIn();
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();
  const skip = form.root.getByTestId('skip-to-generate');

  await skip.focus();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(form.generateBlocked).toBeVisible();
  await expect(form.generate).toBeDisabled();
  await expect(page.locator(':focus')).toContainText(/prompt/i);

  await form.prompt.fill('a red bicycle');
  await skip.focus();
  await page.keyboard.press('Enter');
  await expect(form.generate).toBeFocused();
});
