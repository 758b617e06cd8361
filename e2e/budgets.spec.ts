// Credit budgets from the user's seat: a daily cap set in Settings, Create saying before anything is
// sent that the next request would pass it (with the numbers), Generate asking "Generate anyway" —
// Cancel sends nothing, the override sends it — and the Spending view showing the day's credits.
import { AppShellPage } from './pages/app-shell-page.ts';
import { expect, imageGenerations as generations, serviceTest as test } from './fixtures/service-account.ts';
import { CreateImagePage } from './pages/create-image-page.ts';

test.use({ emulatorOptions: { timeScale: 20 } });

test('a daily cap below the estimate stops Generate before sending; the override sends it; Spending shows the day', async ({
  page,
  signIn,
  emulator,
}) => {
  test.setTimeout(120_000);
  const shell = new AppShellPage(page);
  await signIn();
  const form = new CreateImagePage(page);
  await form.chooseModel('imagea-2');
  await form.prompt.fill('a tin robot on a shelf');
  await form.generate.click();
  // imagea-2 costs 2 credits an image on the emulator; the result says so once the service reported it.
  const results = form.root.getByTestId('result-job');
  await expect(results.first()).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  await expect(results.first().getByTestId('result-credits')).toHaveText('2 credits', { timeout: 15_000 });

  // A daily cap of 3: a bad value is refused in words first.
  await shell.goTo('settings');
  const daily = page.getByRole('textbox', { name: 'Daily credit cap' });
  await daily.fill('2.5');
  await expect(page.getByTestId('setting-dailyCap')).toContainText('The daily cap must be a whole number of credits.');
  await expect(page.getByRole('button', { name: 'Save caps' })).toBeDisabled();
  await daily.fill('3');
  await page.getByRole('button', { name: 'Save caps' }).click();
  await expect(page.getByText('Caps saved.')).toBeVisible();
  await expect(page.getByTestId('budget-spent')).toContainText('Spent today: 2 credits.');

  // Create says so before sending, with the numbers.
  await shell.goTo('create-image');
  await form.prompt.fill('a second tin robot');
  const warning = form.root.getByTestId('budget-warning');
  await expect(warning).toContainText('This needs about 2 credits; 2 of your 3 daily credits are used.');
  await expect(form.generate).toHaveAccessibleDescription(/2 of your 3 daily credits are used/);

  // Generate asks; Cancel sends nothing.
  emulator.control.resetStats();
  await form.generate.click();
  const dialog = page.getByRole('dialog', { name: 'Over your credit cap' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This needs about 2 credits; 2 of your 3 daily credits are used.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('pending-send')).toHaveCount(0);
  // Longer than the 2 s a submission is held before it is sent.
  await page.waitForTimeout(2_500);
  expect(generations(emulator), 'a request over the cap was sent without the override').toBe(0);

  // "Generate anyway" sends it.
  await form.generate.click();
  await dialog.getByRole('button', { name: 'Generate anyway' }).click();
  await expect.poll(() => generations(emulator), { timeout: 10_000 }).toBe(1);
  await expect(results).toHaveCount(2);
  await expect(results.first()).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  await expect(results.first().getByTestId('result-credits')).toHaveText('2 credits', { timeout: 15_000 });

  // The Spending view: today's 4 credits, over the daily cap of 3, by day and by model (its name).
  await shell.goTo('spending');
  const view = shell.view('spending');
  await expect(view.getByTestId('spending-today')).toHaveText('4 credits');
  await expect(view.getByTestId('spending-month')).toHaveText('4 credits');
  await expect(view.getByRole('img', { name: /^Credits by day, last 30 days\. 4 credits/ })).toBeVisible();
  const byDay = view.getByTestId('spending-by-day-table');
  await expect(byDay.getByRole('row').filter({ hasText: '4 credits' }).first()).toBeAttached();
  await expect(byDay).toContainText('Daily cap');
  await view.getByTestId('spending-by-model').getByRole('button', { name: 'Show as table' }).click();
  const byModel = view.getByTestId('spending-by-model-table');
  await expect(byModel).toBeVisible();
  await expect(byModel.getByRole('row', { name: /Image A 2 4 credits 2/ })).toBeVisible();
  await expect(byModel).not.toContainText('imagea-2');
});

test('the Spending view says when nothing was spent yet', async ({ page, signIn }) => {
  await signIn();
  const shell = new AppShellPage(page);
  await shell.goTo('spending');
  await expect(shell.view('spending').getByTestId('spending-empty')).toContainText('No credits spent yet');
  await expect(shell.view('spending').getByTestId('spending-today')).toHaveText('0 credits');
});
