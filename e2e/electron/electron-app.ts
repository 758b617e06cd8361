// Launches the real Electron app for the `_electron` specs, where an Electron binary exists.
// Elsewhere every spec reports "skipped: no Electron binary" (see skipWithoutElectron).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page, type TestInfo } from '@playwright/test';
import { electronBinary } from '../../scripts/electron-binary.ts';
import { repoRoot } from '../fixtures/browser-mode.ts';

export const binary = electronBinary();

export const NO_BINARY_REASON =
  'skipped: no Electron binary (the electron package could not download it on this machine); these tests run where it is installed';

/** Marks the running test skipped, with the reason in the report, when there is nothing to launch. */
export function skipWithoutElectron(testInfo: TestInfo): void {
  if (binary) return;
  // The list reporter prints a test's output; the reason is also in the skip annotation.
  console.log(NO_BINARY_REASON);
  testInfo.skip(true, NO_BINARY_REASON);
}

let built = false;

/** The main and preload bundles must match the sources under test. */
function buildOnce(): void {
  if (built) return;
  const result = spawnSync('npx', ['electron-vite', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('electron-vite build failed');
  built = true;
}

export interface RunningElectronApp {
  app: ElectronApplication;
  window: Page;
  dataDir: string;
  close(): Promise<void>;
}

export async function launchAtelier(): Promise<RunningElectronApp> {
  if (!binary) throw new Error(NO_BINARY_REASON);
  buildOnce();
  const dataDir = mkdtempSync(join(tmpdir(), 'atelier-electron-e2e-'));
  const app = await electron.launch({
    executablePath: binary,
    args: [repoRoot],
    cwd: repoRoot,
    env: { ...process.env, ATELIER_DATA_DIR: dataDir, ATELIER_E2E_HOOKS: '1' },
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
