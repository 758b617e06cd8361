// Demo mode for the hosts (the shell, browser mode), and the one place a host reaches the
// emulator: started in-process on first use on a random loopback port with a fast clock, its
// data kept under dataDir/demo-emulator across restarts.
import { join } from 'node:path';
import { DEFAULT_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import type { DemoService } from '../core/account/types.ts';

export interface EmulatorDemoOptions {
  dataDir: string;
  /** Virtual ms per real ms: 20 turns a 20-minute training into one minute. */
  timeScale?: number;
}

export function createEmulatorDemo(options: EmulatorDemoOptions): DemoService {
  let running: Promise<RunningEmulator> | null = null;
  return {
    async start() {
      running ??= startEmulator({
        port: 0,
        apiKeys: [DEFAULT_API_KEY],
        timeScale: options.timeScale ?? 20,
        dataDir: join(options.dataDir, 'demo-emulator'),
        controlApi: false,
        // The lived-in library (ATELIER_DEMO_LIBRARY=empty starts the demo empty, as tests that count items need).
        demoLibrary: process.env['ATELIER_DEMO_LIBRARY'] !== 'empty',
      }).catch((error: unknown) => {
        running = null;
        throw error;
      });
      const emulator = await running;
      return { baseUrl: emulator.url, apiKey: DEFAULT_API_KEY };
    },
    async stop() {
      const stopping = running;
      running = null;
      if (stopping) await (await stopping).close();
    },
  };
}
