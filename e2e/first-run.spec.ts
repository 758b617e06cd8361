// First run: with no account the app welcomes; "Try the demo" opens the frame in demo mode, a key is checked before it is saved.
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

let emulator: RunningEmulator;
test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
test.afterAll(async () => {
  await emulator.close();
});

test('first run into demo mode', async ({ page, freshApp }) => {
  const shell = new AppShellPage(page);
  const welcome = new FirstRunPage(page);
  await shell.open(freshApp.url);
  await expect(welcome.root).toBeVisible();
  await expect(shell.nav).toHaveCount(0);
  await screenshotBothSchemes(page, 'view-first-run');

  await welcome.chooseDemo.click();
  await expect(shell.view('create-image')).toBeVisible();
  await expect(shell.demoBadge).toBeVisible();

  // Demo mode is remembered: a reload does not ask again.
  await page.reload();
  await expect(shell.demoBadge).toBeVisible();
});

test('first run with an API key: a refused key says why, a good one opens the app', async ({ page, freshApp }) => {
  const shell = new AppShellPage(page);
  const welcome = new FirstRunPage(page);
  await shell.open(freshApp.url);

  await welcome.chooseKey.click();
  // Local checks come first: no address, no key.
  await welcome.submitKey.click();
  await expect(welcome.root).toContainText('Enter the service address.');
  await expect(welcome.root).toContainText('Enter an API key.');
  await welcome.baseUrl.fill('ftp://example.com');
  await expect(welcome.root).toContainText('must start with https://');
  await screenshotBothSchemes(page, 'view-first-run-key');

  await welcome.baseUrl.fill(emulator.url);
  await welcome.apiKey.fill('not-the-key');
  await welcome.submitKey.click();
  await expect(welcome.root).toContainText('The service refused this key');
  // The key field never keeps what was typed.
  await expect(welcome.apiKey).toHaveValue('');
  await expect(welcome.apiKey).toHaveAttribute('type', 'password');

  await welcome.apiKey.fill('demo-key');
  await welcome.submitKey.click();
  await expect(shell.view('create-image')).toBeVisible();
  await expect(shell.demoBadge).toHaveCount(0);
  // Nothing in the page holds the key.
  expect(await page.content()).not.toContain('demo-key');
});
