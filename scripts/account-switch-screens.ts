// Takes docs/screens/account-switch-create.png and account-switch-library.png: browser mode at
// 1280×800, "Try the demo", the demo's trained model picked in Create image and its "Coastlines"
// collection open with a tile selected in a second window, then a real key entered in Settings
// (an emulator account with a library of its own): what both views show right after the switch.
// Run after `npx vite build --config src-renderer/vite.config.ts`: `node scripts/account-switch-screens.ts`.
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { startEmulator } from '../emulator/index.ts';
import { startBrowserModeApp } from '../e2e/fixtures/browser-mode.ts';
import { launchChromium } from '../e2e/fixtures/chromium.ts';

const root = resolve(import.meta.dirname, '..');
const to = join(root, 'docs', 'screens');
const MAX_BYTES = 300 * 1024;
const KEY = 'screens-account-key';
const WAIT = { timeout: 30_000 };

const emulator = await startEmulator({ port: 0, apiKeys: [KEY], demoLibrary: true });
const app = await startBrowserModeApp([], { ATELIER_DEMO_LIBRARY: 'full' });
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const create = await context.newPage();
  await create.goto(app.url);
  await create.getByTestId('choose-demo').click();
  await create.getByTestId('nav-create-image').click();
  const model = create.getByTestId('view-create-image').getByLabel('Model', { exact: true });
  const demoModel = model.locator('option[value^="mdl_"]:not([disabled])').first();
  await demoModel.waitFor({ state: 'attached', ...WAIT });
  await model.selectOption((await demoModel.getAttribute('value')) ?? '');

  const library = await context.newPage();
  await library.goto(`${app.url}#/library`);
  await library.getByTestId('library-sidebar').getByText('Coastlines', { exact: true }).click();
  const tile = library.getByTestId('asset-tile').first();
  await tile.waitFor(WAIT);
  await tile.click();
  await library.getByTestId('selection-bar').waitFor(WAIT);

  // The switch: a real key, entered in Settings of the Create window.
  await create.getByTestId('nav-settings').click();
  await create.getByTestId('edit-key').click();
  const keyRow = create.getByTestId('settings-api-key');
  await keyRow.getByLabel('Service address', { exact: true }).fill(emulator.url);
  await keyRow.getByLabel('API key', { exact: true }).fill(KEY);
  await keyRow.getByTestId('save-key').click();
  await create.getByTestId('edit-key').filter({ hasText: 'Replace' }).waitFor(WAIT);
  await create.getByTestId('nav-create-image').click();
  await create.getByTestId('view-create-image').getByLabel('Prompt', { exact: true }).waitFor(WAIT);
  await create
    .getByTestId('view-create-image')
    .getByLabel('Model', { exact: true })
    .locator('option[value^="mdl_"]')
    .first()
    .waitFor({ state: 'attached', ...WAIT });
  await library.getByTestId('asset-tile').first().waitFor(WAIT);
  // Posters and fonts settle. (A service account's synced items show placeholders until their files
  // are downloaded: the core makes thumbnails from local files only.)
  await library.waitForLoadState('networkidle');
  await create.waitForLoadState('networkidle');

  mkdirSync(to, { recursive: true });
  for (const [page, name] of [
    [create, 'account-switch-create'],
    [library, 'account-switch-library'],
  ] as const) {
    const target = join(to, `${name}.png`);
    const shot = await page.screenshot();
    for (const colours of [128, 64, 32]) {
      await sharp(shot).png({ palette: true, colours, effort: 10, compressionLevel: 9 }).toFile(target);
      if (statSync(target).size <= MAX_BYTES) break;
    }
    console.log(`${name}.png ${Math.round(statSync(target).size / 1024)} KB`);
  }
} finally {
  await browser.close();
  await app.stop();
  await emulator.close();
}
