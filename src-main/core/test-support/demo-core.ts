// A real core in demo mode against a real emulator on loopback, in a folder of its own: what the
// core's channel tests start before a file and close after it. The account is not chosen: a test
// calls account:use-demo when it wants one (some check what happens before).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../emulator/index.ts';
import { createCore, type Core } from '../core.ts';
import { createMemoryStore } from '../settings/store.ts';

export const TEST_HOST = {
  kind: 'browser',
  appVersion: '0.0.0-test',
  chromiumVersion: null,
  electronVersion: null,
} as const;

export interface DemoCore {
  emulator: RunningEmulator;
  core: Core;
  /** The folder holding everything: `data` (the core's data folder) and whatever the test adds. */
  base: string;
  dataDir: string;
  close(): Promise<void>;
}

export async function startDemoCore(options: {
  emulator?: EmulatorOptions;
  /** Names the temporary folder (atelier-<name>-…). */
  name: string;
  /** Settings in memory instead of a file in the data folder. */
  memoryStore?: boolean;
}): Promise<DemoCore> {
  const emulator = await startEmulator(options.emulator);
  const base = await mkdtemp(join(tmpdir(), `atelier-${options.name}-`));
  const dataDir = join(base, 'data');
  const core = await createCore({
    dataDir,
    host: TEST_HOST,
    ...(options.memoryStore ? { store: createMemoryStore() } : {}),
    demo: { start: async () => ({ baseUrl: emulator.url, apiKey: 'demo-key' }), stop: async () => {} },
    logError: () => {},
  });
  return {
    emulator,
    core,
    base,
    dataDir,
    async close() {
      await core.close();
      await emulator.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** Waits for `check` to hold, looking every 10 ms; throws after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
