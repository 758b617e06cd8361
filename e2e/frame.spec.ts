// The app frame in demo mode: keyboard navigation through the sidebar, status bar facts, theme override (the views' pictures: e2e/screens/views.screens.ts).
import { AppShellPage } from './pages/app-shell-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';

test('the sidebar is reachable and usable by keyboard alone', async ({ page, demoApp }) => {
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await expect(shell.view('create-image')).toBeVisible();

  // Tab from the top of the page lands on the skip link, then on the first nav link, with a visible focus ring.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the results' })).toBeFocused();
  await page.keyboard.press('Tab');
  const first = shell.navLink('create-image');
  await expect(first).toBeFocused();
  const outline = await first.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');

  // Arrow keys walk the list; Enter opens the focused view.
  await page.keyboard.press('ArrowDown');
  await expect(shell.navLink('create-video')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(shell.view('create-video')).toBeVisible();
  await expect(shell.navLink('create-video')).toHaveAttribute('aria-current', 'page');

  await page.keyboard.press('End');
  await expect(shell.navLink('settings')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(shell.view('settings')).toBeVisible();

  // Ctrl+digit jumps from anywhere.
  await page.keyboard.press('Control+4');
  await expect(shell.view('library')).toBeVisible();
  await page.keyboard.press('Control+1');
  await expect(shell.view('create-image')).toBeVisible();
});

test('the status bar shows the connection, the demo badge and the version', async ({ page, demoApp }) => {
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await expect(shell.connection).toHaveText('Online');
  await expect(shell.demoBadge).toHaveText('Demo');
  await expect(shell.version).toHaveText(/^Atelier \d+\.\d+\.\d+/);
  await shell.jobsInFlight.click();
  await expect(shell.queueDock).toBeVisible();
  await expect(shell.queueDock).toContainText('No jobs yet');
});

test('the theme setting overrides the system scheme', async ({ page, demoApp }) => {
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await page.emulateMedia({ colorScheme: 'light' });
  await shell.goTo('settings');
  const theme = page.getByTestId('setting-theme');
  await theme.getByRole('radio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(21, 21, 23)');
  await theme.getByRole('radio', { name: 'System' }).click();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/);
});
