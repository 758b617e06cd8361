// Keys that never spend by accident: Enter in a one-line field (the preset search, JPEG compression)
// sends nothing; Ctrl+Enter generates from anywhere in the form, once; the preset dialog owns its keys;
// a skip link leads to Generate. The emulator runs in this process so its request counts can be read.
import { expect, imageGenerations as generations, serviceTest as test } from './fixtures/service-account.ts';
import { CreateImagePage } from './pages/create-image-page.ts';

/** Longer than the queue's hold before sending (SEND_DELAY_MS, 2 s), so a held send has gone by then. */
const PAST_THE_HOLD_MS = 3_000;

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
  // Nothing held to be sent either, and nothing sent once any hold would have ended.
  await expect(page.getByTestId('pending-send')).toHaveCount(0);
  await page.waitForTimeout(PAST_THE_HOLD_MS);
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

test('Esc within the hold after Ctrl+Enter cancels: nothing is sent', async ({ page, signIn, emulator }) => {
  await signIn();
  const form = new CreateImagePage(page);
  await form.prompt.fill('a kite over the dunes');
  await expect(form.generate).toBeEnabled();
  emulator.control.resetStats();

  await form.prompt.press('Control+Enter');
  await expect(page.getByTestId('pending-send')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('pending-send')).toHaveCount(0);
  await expect(page.getByText('Cancelled: nothing was sent.')).toBeVisible();
  await page.waitForTimeout(PAST_THE_HOLD_MS);
  expect(generations(emulator), 'a cancelled submission reached the service').toBe(0);
  await expect(form.root.getByTestId('result-job')).toHaveCount(0);
  // The prompt keeps what was written; a second Ctrl+Enter, not cancelled, sends once.
  await expect(form.prompt).toHaveValue('a kite over the dunes');
  await form.prompt.press('Control+Enter');
  await expect.poll(() => generations(emulator)).toBe(1);
});

test('keys from anywhere: Ctrl+4 puts the focus in the Library, / its search, ? the shortcut sheet', async ({
  page,
  signIn,
}) => {
  await signIn();
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();

  await page.keyboard.press('Control+4');
  const library = page.getByTestId('view-library');
  await expect(library).toBeVisible();
  await expect.poll(() => library.evaluate((view) => view.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Control+1');
  await expect(form.root).toBeVisible();
  await expect.poll(() => form.root.evaluate((view) => view.contains(document.activeElement))).toBe(true);

  // `/` is typed into a field as itself; elsewhere it goes to the Library's search.
  await form.prompt.fill('');
  await form.prompt.press('/');
  await expect(form.prompt).toHaveValue('/');
  await form.prompt.blur();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: /search/i })).toBeFocused();

  // Typed into the search, `?` is text; from outside a field it opens the sheet.
  await page.keyboard.press('?');
  await expect(page.getByRole('searchbox', { name: /search/i })).toHaveValue('?');
  await page.getByRole('searchbox', { name: /search/i }).fill('');
  await page.getByRole('searchbox', { name: /search/i }).blur();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  for (const does of ['Go to Library', 'Generate', 'Search the Library', 'Cancel a submission'])
    await expect(sheet.getByText(does, { exact: false }).first()).toBeVisible();
  await expect(sheet.getByText('Ctrl+4')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
});
