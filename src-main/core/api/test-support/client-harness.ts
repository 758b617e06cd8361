// Test harness for the service client: an emulator on a random loopback port, a client with
// recorded (instant) retry sleeps, and a log file whose text the tests can search.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../../emulator/index.ts';
import { createLogger, type Logger } from '../../log/logger.ts';
import type { RetryPolicyOptions } from '../retry-policy.ts';
import { createServiceClient, type ServiceClient } from '../service-client.ts';
import type { ClientTimeouts } from '../transport.ts';

export interface ClientHarness {
  emulator: RunningEmulator;
  client: ServiceClient;
  /** Every retry wait the client asked for, in order (the sleeps themselves are instant). */
  sleeps: number[];
  logger: Logger;
  /** All log files' text (live and rotated). */
  logText(): string;
  /** A second client on the same emulator, e.g. with another key or options. */
  makeClient(options?: ClientOptions): ServiceClient;
  close(): Promise<void>;
}

export interface ClientOptions {
  apiKey?: () => string | null;
  baseUrl?: string;
  retry?: Partial<RetryPolicyOptions>;
  timeouts?: Partial<ClientTimeouts>;
  random?: () => number;
  /** Really wait (for the test that measures Retry-After on the clock). */
  realSleep?: boolean;
}

export async function startClientHarness(
  options: { emulator?: EmulatorOptions; client?: ClientOptions; logSecrets?: () => string[] } = {},
): Promise<ClientHarness> {
  const emulator = await startEmulator({ seed: 7, ...options.emulator });
  const dir = mkdtempSync(join(tmpdir(), 'atelier-client-'));
  const logger = createLogger({
    file: join(dir, 'atelier.log'),
    level: 'debug',
    ...(options.logSecrets ? { secrets: options.logSecrets } : {}),
  });
  const sleeps: number[] = [];
  const clients: ServiceClient[] = [];
  const defaultKey = options.emulator?.apiKeys?.[0] ?? 'demo-key';
  const makeClient = (o: ClientOptions = {}): ServiceClient => {
    const client = createServiceClient({
      baseUrl: o.baseUrl ?? emulator.url,
      getApiKey: o.apiKey ?? (() => defaultKey),
      logger,
      ...(o.retry ? { retry: o.retry } : {}),
      ...(o.timeouts ? { timeouts: o.timeouts } : {}),
      timing: {
        random: o.random ?? (() => 0.5),
        ...(o.realSleep
          ? {}
          : {
              sleep: async (ms: number) => {
                sleeps.push(ms);
              },
            }),
      },
    });
    clients.push(client);
    return client;
  };
  const client = makeClient(options.client);
  return {
    emulator,
    client,
    sleeps,
    logger,
    logText: () =>
      readdirSync(dir)
        .map((name) => readFileSync(join(dir, name), 'utf8'))
        .join('\n'),
    makeClient,
    async close() {
      for (const c of clients) c.close();
      logger.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small real image made on the spot; `seed` varies the colour so files differ. */
export async function fixtureImage(format: 'png' | 'jpeg' | 'webp', seed = 0, size = 32): Promise<Uint8Array> {
  const buffer = await sharp({
    create: { width: size, height: size, channels: 3, background: { r: (seed * 37) % 256, g: 90, b: 160 } },
  })
    .toFormat(format)
    .toBuffer();
  return new Uint8Array(buffer);
}

/** The number of requests the emulator saw for one route (`METHOD /template`). */
export function routeCount(emulator: RunningEmulator, route: string): number {
  return emulator.control.stats().byRoute[route] ?? 0;
}
