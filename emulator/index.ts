// Public entry: start the service emulator on loopback (tests, `npm run emulator`, the app's demo mode).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { VirtualClock } from './clock.ts';
import { MAX_CONCURRENT_TRAININGS, userIdForApiKey, type EmulatorContext } from './context.ts';
import { createControl, type EmulatorControl } from './control.ts';
import { FaultEngine, type FaultConfig } from './faults.ts';
import { loadVideoFixtures } from './media/fixtures.ts';
import { ImageRenderer } from './media/image-render.ts';
import { MediaSigner, MediaUrls } from './media/signing.ts';
import { DiskUploadStore, loadSnapshot, MemoryUploadStore, SnapshotWriter } from './persistence.ts';
import { seedDemoLibrary } from './demo-library.ts';
import { buildServer } from './server.ts';
import { RequestStats } from './stats.ts';
import { EmulatorStore } from './store.ts';

export type { ClockReading, EmulatorControl } from './control.ts';
export type { FaultConfig, FaultRule, FaultTrigger } from './faults.ts';
export type { StatsReport } from './stats.ts';
export { userIdForApiKey } from './context.ts';
export { FAIL_MAGIC_WORD } from './job-factory.ts';
export { DOWNLOAD_FAIL_MAGIC_WORD } from './routes/videos.ts';

export const DEFAULT_API_KEY = 'demo-key';

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Each key is its own user. Default: [`demo-key`]. */
  apiKeys?: string[];
  /** Virtual ms per real ms; 60 makes a 20-minute training take 20 s. Default 1. */
  timeScale?: number;
  /** Persist state here (JSON snapshot + uploads + render cache); in memory when absent. */
  dataDir?: string;
  /** Makes ids, media tokens, generated seeds and fault dice repeatable. */
  seed?: number;
  faults?: FaultConfig;
  /** Per user; default 2. */
  maxConcurrentTrainings?: number;
  /** Serve /__emulator/ control routes (loopback only). Default true. */
  controlApi?: boolean;
  /** Where the video fixtures live; defaults to emulator/fixtures next to this file (override when bundled). */
  fixturesDir?: string;
  /**
   * Job lifecycles this many times faster than the clock, which keeps real time (timeScale 1): for
   * a client on the wall clock that must not see its service's timestamps run ahead (the fault soak
   * test). Default 1.
   */
  jobSpeed?: number;
  /** Give every key's account the demo's lived-in library on first start (demo-library.ts). */
  demoLibrary?: boolean;
}

export interface RunningEmulator {
  /** Base URL of the API, e.g. `http://127.0.0.1:8787` (no trailing slash). */
  url: string;
  port: number;
  control: EmulatorControl;
  /** Stops listening, drops open connections and writes the last snapshot. */
  close(): Promise<void>;
}

interface AssembledEmulator {
  app: FastifyInstance;
  control: EmulatorControl;
  /** Tells the media URL builder where the server ended up listening. */
  setBaseUrl(url: string): void;
  /** Stops persistence (after the server has closed) and writes the last snapshot. */
  finish(): Promise<void>;
}

function jobSpeedOf(speed: number | undefined): number {
  if (speed === undefined) return 1;
  if (!Number.isFinite(speed) || speed <= 0) throw new RangeError('jobSpeed must be a positive number');
  return speed;
}

/** Wires store, clock, faults and routes together without listening (tests use it with fastify's inject). */
export function assembleEmulator(options: EmulatorOptions = {}): AssembledEmulator {
  const apiKeys = options.apiKeys && options.apiKeys.length > 0 ? options.apiKeys : [DEFAULT_API_KEY];
  const seed = options.seed ?? randomBytes(4).readUInt32LE(0);
  const store = new EmulatorStore(options.seed);
  const snapshot = options.dataDir ? loadSnapshot(options.dataDir) : undefined;
  if (snapshot) store.restore(snapshot);
  // Virtual time never runs backwards across a restart: resume from the later of the saved and the real time.
  const clock = new VirtualClock({
    timeScale: options.timeScale ?? 1,
    ...(snapshot ? { startAt: Math.max(snapshot.virtualNow, Date.now()) } : {}),
  });
  let baseUrl = '';
  const signer = new MediaSigner(() => store.mediaSecret);
  const faults = new FaultEngine(seed);
  if (options.faults) faults.set(options.faults);
  const ctx: EmulatorContext = {
    store,
    clock,
    faults,
    stats: new RequestStats(),
    uploads: options.dataDir ? new DiskUploadStore(options.dataDir) : new MemoryUploadStore(),
    renderer: new ImageRenderer(options.dataDir ? join(options.dataDir, 'render-cache') : undefined),
    fixtures: loadVideoFixtures(options.fixturesDir),
    signer,
    urls: new MediaUrls(() => baseUrl, signer),
    users: new Map(apiKeys.map((key) => [key, userIdForApiKey(key)])),
    maxConcurrentTrainings: options.maxConcurrentTrainings ?? MAX_CONCURRENT_TRAININGS,
    jobSpeed: jobSpeedOf(options.jobSpeed),
    media: { blobGeneration: 0 },
  };
  if (options.demoLibrary) {
    for (const ownerId of ctx.users.values()) {
      const seeded = seedDemoLibrary(ctx, ownerId, { now: clock.now() });
      // The newest pictures are drawn while the app syncs, so its first downloads find them ready.
      for (const spec of seeded?.warm ?? []) void ctx.renderer.render(spec).catch(() => undefined);
    }
  }
  const writer = options.dataDir ? new SnapshotWriter(options.dataDir, () => store.snapshot(clock.now())) : undefined;
  const unsubscribe = writer ? store.onChange(() => writer.schedule()) : () => undefined;
  const control = createControl(ctx);
  const app = buildServer(ctx, control, { controlApi: options.controlApi ?? true });
  return {
    app,
    control,
    setBaseUrl: (url) => {
      baseUrl = url;
    },
    async finish() {
      unsubscribe();
      await writer?.flush();
    },
  };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const { app, control, setBaseUrl, finish } = assembleEmulator(options);
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  setBaseUrl(url);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    control,
    close() {
      closing ??= (async () => {
        await app.close();
        await finish();
      })();
      return closing;
    },
  };
}
