// `npm run pretest:e2e` (npm runs it before `npm run test:e2e`): what the e2e specs need on this
// machine. Chromium: a system Chromium when there is one (then Playwright's is not downloaded,
// and this says so), else Playwright's own, installed by `playwright install chromium`. Electron:
// its binary, installed like `npm start` does; where that fails the `_electron` specs skip and
// the rest runs.
import { findSystemChromium, playwrightChromium } from '../e2e/fixtures/chromium.ts';
import { electronBinary } from './electron-binary.ts';
import { ensureElectron } from './electron-install.ts';
import { runBin } from './package-bin.ts';

const say = (line: string) => process.stderr.write(`e2e: ${line}\n`);

function prepareChromium(): boolean {
  let system;
  try {
    system = findSystemChromium();
  } catch (error) {
    say((error as Error).message);
    return false;
  }
  if (system) {
    say(
      `using the system Chromium at ${system.path}${system.source === 'CHROMIUM_PATH' ? ' (CHROMIUM_PATH)' : ''}; skipping the download of Playwright's Chromium.`,
    );
    return true;
  }
  const own = playwrightChromium();
  if (own) {
    say(`using Playwright's Chromium at ${own.path}.`);
    return true;
  }
  say("no system Chromium (CHROMIUM_PATH, /usr/bin/chromium, …): installing Playwright's Chromium…");
  // Full Chromium, not the headless shell: the same kind of browser as a system Chromium.
  const result = runBin('@playwright/test', ['install', 'chromium', '--no-shell'], { command: 'playwright' });
  if (result.status === 0 && playwrightChromium()) return true;
  say(
    "Playwright's Chromium could not be installed (see above); install Chromium from your system's packages, or set CHROMIUM_PATH to one.",
  );
  return false;
}

async function prepareElectron(): Promise<void> {
  const found = electronBinary();
  if (found) {
    say(`Electron binary at ${found}.`);
    return;
  }
  const result = await ensureElectron();
  if (!result.ok) say(`no Electron binary (${result.cause}); the _electron specs will be skipped.`);
}

const chromiumReady = prepareChromium();
await prepareElectron();
process.exit(chromiumReady ? 0 : 1);
