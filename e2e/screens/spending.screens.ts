// Pictures of the Spending view (credits by day with the daily cap, by model, the month against its
// cap) in light and dark, at 1920×1080 and 1024×640: a few demo jobs of two models, caps set in Settings.
import { AppShellPage } from '../pages/app-shell-page.ts';
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { CreateImagePage } from '../pages/create-image-page.ts';
import { screenshotBothSchemes } from '../pages/screenshots.ts';

test('the Spending view at 1920×1080 and 1024×640', async ({ page, demoApp }) => {
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  const form = new CreateImagePage(page);
  const results = form.root.getByTestId('result-job');
  const made: [string, string][] = [
    ['imagea-2', 'a brass telescope on a desk'],
    ['imagea-2', 'a lighthouse at dusk'],
    ['imagea', 'a bowl of lemons'],
  ];
  for (const [model, prompt] of made) {
    await form.chooseModel(model);
    await form.prompt.fill(prompt);
    await form.generate.click();
    await expect(results.first()).toContainText(prompt);
    await expect(results.first()).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
    await expect(results.first().getByTestId('result-credits')).toHaveText(/credit/, { timeout: 15_000 });
  }
  await shell.goTo('settings');
  await page.getByRole('textbox', { name: 'Daily credit cap' }).fill('4');
  await page.getByRole('textbox', { name: 'Monthly credit cap' }).fill('60');
  await page.getByRole('button', { name: 'Save caps' }).click();
  await expect(page.getByText('Caps saved.')).toBeVisible();
  await shell.goTo('spending');
  await expect(shell.view('spending').getByTestId('spending-month')).toHaveText('5 credits');
  for (const [width, height] of [
    [1920, 1080],
    [1024, 640],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await screenshotBothSchemes(page, `spending-${width}x${height}`);
  }
});
