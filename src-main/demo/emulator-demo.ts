// Demo mode for the hosts (the shell, browser mode), and the one place a host reaches the
// emulator: started in-process on first use on a random loopback port with a fast clock, its
// data kept under dataDir/demo-emulator across restarts. The emulator (with fastify and sharp)
// is imported only then: a start that never opens the demo never loads it.
import { join } from 'node:path';
import { DEMO_TIME_SCALE } from '../contract/training-time.ts';
import type { DemoService } from '../core/account/types.ts';
import type { RunningEmulator } from './demo-emulator.ts';

type EmulatorModule = typeof import('./demo-emulator.ts');
const loadEmulator = (): Promise<EmulatorModule> => import('./demo-emulator.ts');

export interface EmulatorDemoOptions {
  dataDir: string;
  /** Virtual ms per real ms (default DEMO_TIME_SCALE, which the demo's training watcher follows). */
  timeScale?: number;
}

export function createEmulatorDemo(options: EmulatorDemoOptions): DemoService {
  let running: Promise<{ emulator: RunningEmulator; apiKey: string }> | null = null;
  const start = async (): Promise<{ emulator: RunningEmulator; apiKey: string }> => {
    const { DEFAULT_API_KEY, startEmulator } = await loadEmulator();
    const emulator = await startEmulator({
      port: 0,
      apiKeys: [DEFAULT_API_KEY],
      timeScale: options.timeScale ?? DEMO_TIME_SCALE,
      dataDir: join(options.dataDir, 'demo-emulator'),
      controlApi: false,
      // The lived-in library (ATELIER_DEMO_LIBRARY=empty starts the demo empty, as tests that count items need).
      demoLibrary: process.env['ATELIER_DEMO_LIBRARY'] !== 'empty',
    });
    return { emulator, apiKey: DEFAULT_API_KEY };
  };
  return {
    async start() {
      running ??= start().catch((error: unknown) => {
        running = null;
        throw error;
      });
      const { emulator, apiKey } = await running;
      return { baseUrl: emulator.url, apiKey };
    },
    async stop() {
      const stopping = running;
      running = null;
      if (stopping) await (await stopping).emulator.close();
    },
  };
}
