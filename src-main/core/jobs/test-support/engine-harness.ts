// Runs the real jobs engine against the real emulator over loopback, on the emulator's virtual
// clock: `advance(ms)` moves the service's time and fires the engine's timers that came due.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../../emulator/index.ts';
import { createServiceClient, type ServiceClient } from '../../api/service-client.ts';
import { openAccountDb, type AccountDb } from '../../db/account-db.ts';
import { createEventBus, type EventBus } from '../../events.ts';
import type { NotificationRequest, Notifier } from '../../host/notifier.ts';
import { createPowerSignalHub, type PowerSignalHub } from '../../host/power-signals.ts';
import { silentLogger } from '../../log/index.ts';
import { createJobsEngine, type JobsEngine, type JobsEngineDeps } from '../engine.ts';
import type { RoundReport } from '../poll-round.ts';
import { jobsServiceFromClient } from '../service-port.ts';
import { createManualTime, type ManualTime } from './manual-time.ts';

export interface RecordedEvent {
  event: string;
  payload: unknown;
}

export interface EngineHarness {
  emulator: RunningEmulator;
  cache: AccountDb;
  dbFile: string;
  client: ServiceClient;
  engine: JobsEngine;
  time: ManualTime;
  power: PowerSignalHub;
  events: EventBus;
  recorded: RecordedEvent[];
  notifications: NotificationRequest[];
  rounds: RoundReport[];
  /** Moves the emulator's clock (and so the engine's now) and runs whatever came due. */
  advance(ms: number): Promise<void>;
  /** Fires due timers and waits for the passes they start, until nothing more is due now. */
  settle(): Promise<void>;
  /** Opens a second engine on the same database file (a restart). */
  reopen(overrides?: Partial<JobsEngineDeps>): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  emulator?: EmulatorOptions;
  /** Reuse a running emulator (e.g. across a simulated restart). */
  runningEmulator?: RunningEmulator;
  dbFile?: string;
  engine?: Partial<JobsEngineDeps>;
  /** Client retries; default 1 attempt so every request a test counts is the engine's decision. */
  clientAttempts?: number;
  seed?: number;
}

export async function startEngineHarness(options: HarnessOptions = {}): Promise<EngineHarness> {
  // Virtual time all but frozen: only advance() moves it, so a loaded machine cannot shift a test.
  const emulator = options.runningEmulator ?? (await startEmulator({ seed: 11, timeScale: 1e-6, ...options.emulator }));
  const dir = options.dbFile ? null : mkdtempSync(join(tmpdir(), 'atelier-jobs-'));
  const dbFile = options.dbFile ?? join(dir!, 'atelier.db');
  let cache = openAccountDb(dbFile);
  const client = createServiceClient({
    baseUrl: emulator.url,
    getApiKey: () => 'demo-key',
    logger: silentLogger(),
    retry: { maxAttempts: options.clientAttempts ?? 1 },
    timing: { sleep: async () => {}, random: () => 0.5 },
  });
  // A round's short retry waits move the virtual clock to their end (as the real time they take
  // would), once the work in flight has had its turn: measured gaps include them.
  const time = createManualTime(() => emulator.control.now(), {
    seed: options.seed ?? 3,
    advance: (ms) => emulator.control.advanceClock(ms),
  });
  const power = createPowerSignalHub();
  const events = createEventBus();
  const recorded: RecordedEvent[] = [];
  events.subscribe((event, payload) => void recorded.push({ event, payload }));
  const notifications: NotificationRequest[] = [];
  const notifier: Notifier = { notify: (n) => void notifications.push(n) };
  const rounds: RoundReport[] = [];

  const build = (overrides: Partial<JobsEngineDeps> = {}): JobsEngine =>
    createJobsEngine({
      cache,
      service: jobsServiceFromClient(client),
      events,
      time,
      notifier,
      power,
      onRound: (report) => void rounds.push(report),
      ...options.engine,
      ...overrides,
    });

  const harness: EngineHarness = {
    emulator,
    cache,
    dbFile,
    client,
    engine: build(),
    time,
    power,
    events,
    recorded,
    notifications,
    rounds,
    async settle() {
      for (let i = 0; i < 50; i += 1) {
        await harness.engine.settled();
        if (time.fireDue() === 0) {
          await harness.engine.settled();
          if (time.pending().every((t) => t.at > time.now())) return;
        }
      }
      throw new Error('The engine kept firing timers: a busy loop?');
    },
    async advance(ms) {
      if (ms > 0) emulator.control.advanceClock(ms);
      await harness.settle();
    },
    async reopen(overrides) {
      await harness.engine.stop();
      cache.close();
      cache = openAccountDb(dbFile);
      harness.cache = cache;
      harness.engine = build(overrides);
      harness.engine.start();
      await harness.settle();
    },
    async close() {
      await harness.engine.stop();
      cache.close();
      client.close();
      if (!options.runningEmulator) await emulator.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** A valid public image request (the emulator makes it succeed unless told otherwise). */
export function imageBody(prompt = 'a lighthouse at dawn'): Record<string, unknown> {
  return { modelID: 'imagea', prompt, numImages: 1 };
}

export function videoBody(prompt = 'waves on a beach'): Record<string, unknown> {
  return { modelID: 'videod-1.5', prompt };
}

/** GET /jobs and GET /jobs/:id requests the emulator counted since its last reset. */
export function pollRequests(emulator: RunningEmulator): { list: number; single: number; total: number } {
  const byRoute = emulator.control.stats().byRoute;
  const list = byRoute['GET /jobs'] ?? 0;
  const single = byRoute['GET /jobs/:id'] ?? 0;
  return { list, single, total: list + single };
}
