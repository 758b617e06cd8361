// The API key entered through the UI crosses the bridge once (to main) and never comes back:
// not in the page, not in the browser's storage, not in any message from the core, not on disk.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { FirstRunPage } from './pages/first-run-page.ts';

const SENTINEL = 'sk-SENTINEL-e2e-4b7d1f09c2a6';

let emulator: RunningEmulator;
test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [SENTINEL] });
});
test.afterAll(async () => {
  await emulator.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('the key set through the UI never reaches the page, its storage, a bridge message or a file', async ({
  page,
  freshApp,
}) => {
  const fromCore: string[] = [];
  const toCore: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (frame) => fromCore.push(String(frame.payload)));
    ws.on('framesent', (frame) => toCore.push(String(frame.payload)));
  });
  const shell = new AppShellPage(page);
  await shell.open(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, SENTINEL);
  await expect(shell.view('create-image')).toBeVisible();
  // Let the first sync and its events arrive, then look everywhere the renderer could keep it.
  await shell.goTo('library');
  await shell.goTo('settings');
  await page.waitForTimeout(1_000);

  expect(fromCore.length).toBeGreaterThan(5);
  expect(fromCore.filter((message) => message.includes(SENTINEL))).toEqual([]);
  // Exactly one message carried it: the renderer handing it to main with account:set-key.
  const carrying = toCore.filter((message) => message.includes(SENTINEL));
  expect(carrying).toHaveLength(1);
  expect(carrying[0]).toContain('account:set-key');

  expect(await page.content()).not.toContain(SENTINEL);
  const stored = await page.evaluate(() =>
    JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, history.state, location.href]),
  );
  expect(stored).not.toContain(SENTINEL);
  const inputs = await page.evaluate(() => [...document.querySelectorAll('input')].map((input) => input.value));
  expect(inputs.join('\n')).not.toContain(SENTINEL);

  // Browser mode cannot encrypt, so the key is kept for the session only: no file holds it.
  for (const file of filesUnder(freshApp.dataDir)) {
    expect(readFileSync(file).includes(SENTINEL), file).toBe(false);
  }
  await page.reload();
  await expect(shell.version).toBeVisible();
  expect(await page.content()).not.toContain(SENTINEL);
});
