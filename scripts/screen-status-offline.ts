// Draws docs/screens/status-offline.png (1280×800, light): browser mode started while its service
// is down, on Create image with a prompt typed: the status bar says "Can't reach the service" (with
// Try now) and Generate is disabled with its reason beside it. Outside the e2e run:
// `npx vite build --config src-renderer/vite.config.ts && node scripts/screen-status-offline.ts`.
import { writeFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { startEmulator } from '../emulator/index.ts';
import { startBrowserModeApp } from '../e2e/fixtures/browser-mode.ts';
import { launchChromium } from '../e2e/fixtures/chromium.ts';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'docs', 'screens', 'status-offline.png');
const MAX_BYTES = 300 * 1024;

// A loopback port where nothing listens: the service is "down".
const probe = await startEmulator({ port: 0 });
const port = Number(new URL(probe.url).port);
await probe.close();

const app = await startBrowserModeApp([], { ATELIER_API_KEY: 'demo-key' }, (dataDir) => {
  writeFileSync(
    join(dataDir, 'settings.json'),
    JSON.stringify({ settings: { baseUrl: `http://127.0.0.1:${port}`, theme: 'light' } }),
  );
});
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(app.url);
  await page.getByTestId('connection').filter({ hasText: "Can't reach the service" }).waitFor({ timeout: 15_000 });
  await page.getByTestId('nav-create-image').click();
  const view = page.getByTestId('view-create-image');
  await view.getByLabel('Prompt', { exact: true }).fill('a lighthouse on a cliff in a storm, long exposure');
  await view.getByTestId('generate-blocked').waitFor();
  // The caret and hover states out of the picture.
  await page.mouse.move(1270, 400);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const shot = await page.screenshot();
  for (const colours of [128, 64, 32]) {
    await sharp(shot).png({ palette: true, colours, effort: 10, compressionLevel: 9 }).toFile(target);
    if (statSync(target).size <= MAX_BYTES) break;
  }
  console.log(`status-offline.png ${Math.round(statSync(target).size / 1024)} KB`);
} finally {
  await browser.close();
  await app.stop();
}
