// Launches the real Electron app for the `_electron` specs, where an Electron binary exists: the
// same binary `npm start` runs (scripts/electron-binary.ts; `npm run pretest:e2e` installs it when
// it can). On headless Linux the app gets a display from Xvfb when it is installed. Elsewhere
// every spec reports "skipped: no Electron binary" or "skipped: no display" (skipWithoutElectron).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page, type TestInfo } from '@playwright/test';
import { electronBinary } from '../../scripts/electron-binary.ts';
import { linuxSandboxCheck } from '../../scripts/electron-sandbox.ts';
import { runBin } from '../../scripts/package-bin.ts';
import { needsVirtualDisplay, onPath, startXvfb, type VirtualDisplay } from '../../scripts/virtual-display.ts';
import { repoRoot } from '../fixtures/browser-mode.ts';

export const binary = electronBinary();

export const NO_BINARY_REASON =
  'skipped: no Electron binary (the electron package could not download it on this machine); these tests run where it is installed';

export const NO_DISPLAY_REASON =
  'skipped: no display for Electron (headless Linux without Xvfb); install Xvfb or run the tests under xvfb-run';

const xvfb = needsVirtualDisplay() ? onPath('Xvfb') : null;
const noDisplay = needsVirtualDisplay() && !xvfb;

/** Marks the running test skipped, with the reason in the report, when there is nothing to launch. */
export function skipWithoutElectron(testInfo: TestInfo): void {
  const reason = !binary ? NO_BINARY_REASON : noDisplay ? NO_DISPLAY_REASON : null;
  if (!reason) return;
  // The list reporter prints a test's output; the reason is also in the skip annotation.
  console.log(reason);
  testInfo.skip(true, reason);
}

let built = false;

/** The main and preload bundles must match the sources under test. */
function buildOnce(): void {
  if (built) return;
  const result = runBin('electron-vite', ['build'], { cwd: repoRoot });
  if (result.status !== 0)
    throw new Error(`electron-vite build failed${result.error ? `: ${result.error.message}` : ''}`);
  built = true;
}

let display: Promise<VirtualDisplay> | null = null;

export interface RunningElectronApp {
  app: ElectronApplication;
  window: Page;
  dataDir: string;
  close(): Promise<void>;
}

export async function launchAtelier(): Promise<RunningElectronApp> {
  if (!binary) throw new Error(NO_BINARY_REASON);
  if (noDisplay) throw new Error(NO_DISPLAY_REASON);
  buildOnce();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  if (xvfb) {
    // One Xvfb for the whole run, stopped when the test process exits.
    display ??= startXvfb(xvfb);
    env.DISPLAY = (await display).display;
  }
  delete env.ELECTRON_RUN_AS_NODE;
  const dataDir = mkdtempSync(join(tmpdir(), 'atelier-electron-e2e-'));
  const app = await electron.launch({
    executablePath: binary,
    // As `npm start` does: --no-sandbox only where Chromium's sandbox cannot work with this binary.
    args: [...linuxSandboxCheck(binary).args, repoRoot],
    cwd: repoRoot,
    env: { ...env, ATELIER_DATA_DIR: dataDir, ATELIER_E2E_HOOKS: '1' },
  });
  const window = await app.firstWindow();
  await window.waitForLoadState('domcontentloaded');
  return {
    app,
    window,
    dataDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
