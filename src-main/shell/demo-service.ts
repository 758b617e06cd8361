// Demo mode's service: the emulator started in-process on a random loopback port with a fast
// clock, its data kept under the data folder so the demo library survives restarts.
import { join } from 'node:path';
import { DEFAULT_API_KEY, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import type { DemoService } from '../core/account/types.ts';

export interface DemoServiceOptions {
  dataDir: string;
  /** Virtual ms per real ms: 30 makes a 20-minute training take 40 s. */
  timeScale?: number;
  /** For tests: another way to start the emulator. */
  start?: (options: EmulatorOptions) => Promise<RunningEmulator>;
}

export const demoEmulatorDir = (dataDir: string): string => join(dataDir, 'demo-emulator');

export function createDemoService(options: DemoServiceOptions): DemoService {
  const start = options.start ?? startEmulator;
  let running: Promise<RunningEmulator> | null = null;
  return {
    async start() {
      running ??= start({
        port: 0,
        host: '127.0.0.1',
        apiKeys: [DEFAULT_API_KEY],
        timeScale: options.timeScale ?? 30,
        dataDir: demoEmulatorDir(options.dataDir),
        // The app has no use for the test-control routes; do not serve them.
        controlApi: false,
      }).catch((error: unknown) => {
        running = null;
        throw error;
      });
      const emulator = await running;
      return { baseUrl: emulator.url, apiKey: DEFAULT_API_KEY };
    },
    async stop() {
      const current = running;
      running = null;
      // A start that failed has nothing to stop.
      if (current) await current.then((emulator) => emulator.close(), () => undefined);
    },
  };
}
