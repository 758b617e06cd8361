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
  await expect(shell.view('library')).toBeVisible();
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

  // Nothing answers at the address: said on the address, in this screen's words; the key is kept.
  await welcome.baseUrl.fill('http://127.0.0.1:9');
  await welcome.apiKey.fill('not-the-key');
  await welcome.submitKey.click();
  await expect(welcome.fieldError('baseUrl')).toContainText('Nothing answered at http://127.0.0.1:9');
  await expect(welcome.fieldError('baseUrl')).not.toContainText('Settings');
  await expect(welcome.fieldError('apiKey')).toHaveCount(0);
  await expect(welcome.apiKey).toHaveValue('not-the-key');

  // The address answers and refuses the key: said on the key; the key survives for a fix.
  await welcome.baseUrl.fill(emulator.url);
  await welcome.submitKey.click();
  await expect(welcome.fieldError('apiKey')).toContainText('refused this key');
  await expect(welcome.fieldError('baseUrl')).toHaveCount(0);
  await expect(welcome.apiKey).toHaveValue('not-the-key');
  await expect(welcome.apiKey).toHaveAttribute('type', 'password');

  // A key pasted with a "Bearer " prefix and spaces is cleaned, and says so.
  await welcome.apiKey.fill('  Bearer demo-key \n');
  await welcome.apiKey.blur();
  await expect(welcome.apiKey).toHaveValue('demo-key');
  await expect(welcome.root).toContainText('Removed the “Bearer ” prefix and spaces from the pasted key.');
  await welcome.submitKey.click();
  await expect(shell.view('create-image')).toBeVisible();
  await expect(shell.demoBadge).toHaveCount(0);
  // Nothing in the page holds the key.
  expect(await page.content()).not.toContain('demo-key');
});
