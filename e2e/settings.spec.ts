// Settings: setting a key (checked against the service, stored as safely as the host allows) and removing it.
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { SettingsPage } from './pages/settings-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

let emulator: RunningEmulator;
test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
test.afterAll(async () => {
  await emulator.close();
});

test('setting and removing a key from Settings', async ({ page, freshApp }) => {
  const shell = new AppShellPage(page);
  const settings = new SettingsPage(page);
  await shell.open(freshApp.url);
  await new FirstRunPage(page).chooseDemo.click();
  await shell.goTo('settings');
  await expect(settings.keyStorage).toHaveText('Not set');
  await expect(settings.demoToggle).toHaveAttribute('aria-checked', 'true');
  await screenshotBothSchemes(page, 'view-settings-demo');

  // The address changes only together with the key; a bad one is refused before anything is sent.
  await expect(settings.serviceAddress).toHaveText('Not set yet');
  await settings.editKey.click();
  await settings.baseUrl.fill('http://example.com/v1');
  await settings.apiKey.fill('wrong-key');
  await settings.saveKey.click();
  await expect(settings.keyRow).toContainText('must start with https://');
  await settings.baseUrl.fill(emulator.url);
  await settings.saveKey.click();
  await expect(settings.keyRow).toContainText('The service refused this key');
  await expect(settings.apiKey).toHaveValue('');
  await settings.apiKey.fill('demo-key');
  await settings.saveKey.click();

  // Browser mode has no OS keychain: the key is kept for this session only, and the page says so.
  await expect(settings.keyStorage).toHaveText('This session only');
  await expect(settings.keyRow).toContainText('this session only');
  await expect(settings.demoToggle).toHaveAttribute('aria-checked', 'false');
  await expect(settings.serviceAddress).toHaveText(emulator.url);
  await expect(shell.demoBadge).toHaveCount(0);
  expect(await page.content()).not.toContain('demo-key');
  await screenshotBothSchemes(page, 'view-settings-key');

  await settings.removeKey.click();
  await expect(settings.confirmRemoveDialog).toBeVisible();
  // Esc closes the dialog without removing anything.
  await page.keyboard.press('Escape');
  await expect(settings.confirmRemoveDialog).toHaveCount(0);
  await expect(settings.keyStorage).toHaveText('This session only');

  await settings.removeKey.click();
  await settings.confirmRemove.click();
  // No key and no demo: back to the welcome.
  await expect(new FirstRunPage(page).root).toBeVisible();
});
