// Runs one jobs engine and one upload queue per open account: started when an account opens
// (or is already open), stopped before its database closes on a switch or at quit. Handlers
// reach them through here, and the library's download queue receives new outputs through here.
// The engine's and the queue's code is loaded just after the start, not during it (the first
// screen reads the account's database only); handlers wait for it with ready().
import { dirname, join } from 'node:path';
import { AppError } from '../../contract/errors.ts';
import { loadAfterStart } from '../after-start.ts';
import type { AccountSession } from '../account/types.ts';
import { createCache } from '../db/cache.ts';
import type { SqliteDatabase } from '../db/database.ts';
import type { EventBus } from '../events.ts';
import type { Notifier } from '../host/notifier.ts';
import type { PowerSignals } from '../host/power-signals.ts';
import type { ProgressAggregate } from '../host/progress.ts';
import type { Settings } from '../settings/settings.ts';
import type { UploadQueue } from '../uploads/upload-queue.ts';
import type { EngineLogger, JobsEngine } from './engine.ts';
import type { EngineTime } from './engine-time.ts';
import type { OutputAsset } from './outputs.ts';
import type { JobsService } from './service-port.ts';

export interface EngineAccountManager<Client> {
  current(): { mode: string; db: SqliteDatabase | null; client: Client | null; baseUrl: string | null };
  onSessionOpened(listener: (session: AccountSession<SqliteDatabase, Client>) => void | Promise<void>): () => void;
  onSessionClosing(listener: (session: AccountSession<SqliteDatabase, Client>) => void | Promise<void>): () => void;
}

export interface JobsEngineHostDeps<Client> {
  accounts: EngineAccountManager<Client>;
  events: EventBus;
  settings: Settings;
  notifier: Notifier;
  power: PowerSignals;
  /** The taskbar/dock bar shared with downloads; uploads report into it. */
  progress?: ProgressAggregate;
  /** The account's client as the engine's service; null when it cannot serve (a stand-in). */
  serviceFor(client: Client): JobsService | null;
  logger: EngineLogger;
  time?: EngineTime;
}

export interface OutputsListener {
  (assets: OutputAsset[]): void;
}

export interface JobsEngineHost {
  /** Resolves once the open account's engine and queue run (their code loads after the start). */
  ready(): Promise<void>;
  jobs(): JobsEngine;
  uploads(): UploadQueue;
  /** The library connects its download queue here (auto-download is its decision). */
  setOutputsListener(listener: OutputsListener | null): void;
  close(): Promise<void>;
}

interface Running {
  db: SqliteDatabase;
  jobs: JobsEngine;
  uploads: UploadQueue;
}

/**
 * The demo's service runs its clock about 20 times faster (a training takes about a minute), so its
 * training is checked every 15 s instead of every 5 minutes: a model becomes usable when it is ready.
 */
const DEMO_ENGINE_OPTIONS = {
  training: { intervalMs: 15_000, slowAfterMs: 5 * 60_000, slowIntervalMs: 60_000 },
};

const noAccount = (): AppError =>
  new AppError({ code: 'auth', message: 'No account yet: add your API key in Settings, or try the demo.' });

const loadCode = () =>
  Promise.all([import('./engine.ts'), import('./engine-time.ts'), import('../uploads/upload-queue.ts')]).then(
    ([engine, time, queue]) => ({
      createJobsEngine: engine.createJobsEngine,
      systemTime: time.systemTime,
      UploadQueue: queue.UploadQueue,
    }),
  );

/** The open account's engine once its code has loaded (for handlers); an 'auth' error without an account. */
export async function readyJobs(host: JobsEngineHost): Promise<JobsEngine> {
  await host.ready();
  return host.jobs();
}

/** The open account's upload queue once its code has loaded (for handlers); an 'auth' error without an account. */
export async function readyUploads(host: JobsEngineHost): Promise<UploadQueue> {
  await host.ready();
  return host.uploads();
}

export function hostJobsEngine<Client>(deps: JobsEngineHostDeps<Client>): JobsEngineHost {
  let running: Running | null = null;
  let outputsListener: OutputsListener | null = null;
  const code = loadAfterStart(loadCode);
  /** The open account's engine being made (its code loading); null once made, or with no account. */
  let opening: Promise<void> | null = null;
  /** Which database the engine is for (or is being made for): a switch or a close meanwhile cancels it. */
  let openFor: SqliteDatabase | null = null;

  const open = (db: SqliteDatabase, client: Client, mode: string): void => {
    openFor = db;
    const made = code.loaded
      .then((loaded) => {
        if (openFor === db && !running) make(loaded, db, client, mode);
      })
      .catch((error: unknown) => deps.logger.warn('Loading the jobs engine failed', error));
    opening = made.finally(() => {
      if (opening === made) opening = null;
    });
  };

  const make = (
    { createJobsEngine, systemTime, UploadQueue }: Awaited<ReturnType<typeof loadCode>>,
    db: SqliteDatabase,
    client: Client,
    mode: string,
  ): void => {
    const service = deps.serviceFor(client);
    if (!service) return;
    const cache = createCache(db);
    const jobs = createJobsEngine({
      ...(mode === 'demo' ? { options: DEMO_ENGINE_OPTIONS } : {}),
      cache,
      service,
      events: deps.events,
      notifier: deps.notifier,
      power: deps.power,
      logger: deps.logger,
      ...(deps.time ? { time: deps.time } : {}),
      preferences: {
        pollingPaused: () => deps.settings.get().pollingPaused,
        onPollingPausedChange: (listener) =>
          deps.settings.onChange((values, changed) => {
            if (changed.includes('pollingPaused')) listener(values.pollingPaused);
          }),
      },
      // Auto-download is a setting (on by default): only then do new outputs go to the download queue.
      onOutputs: (assets) => {
        if (deps.settings.get().autoDownload) outputsListener?.(assets);
      },
    });
    const uploads = new UploadQueue({
      cache,
      service,
      time: deps.time ?? systemTime,
      emit: (info) => deps.events.emit('uploads:changed', info),
      stagingDir: join(dirname(db.name), 'upload-staging'),
      logger: deps.logger,
      ...(deps.progress ? { progress: deps.progress } : {}),
      onRateLimited: (retryAfterMs) => deps.events.emit('service:rate-limited', { retryAfterMs, source: 'uploads' }),
    });
    running = { db, jobs, uploads };
    jobs.start();
    uploads.start();
  };

  const close = async (): Promise<void> => {
    const current = running;
    running = null;
    openFor = null;
    if (current) await Promise.all([current.jobs.stop(), current.uploads.stop()]);
  };

  const stopOpened = deps.accounts.onSessionOpened((session) => {
    if (!running && !openFor) open(session.db, session.client, session.mode);
  });
  // Closing before the code has loaded cancels the engine: it is never made (nor sends anything).
  const stopClosing = deps.accounts.onSessionClosing(async (session) => {
    if (openFor === session.db) await close();
  });
  const current = deps.accounts.current();
  if (current.db && current.client) open(current.db, current.client, current.mode);

  return {
    async ready() {
      if (opening) await code.now();
      await opening;
    },
    jobs() {
      if (!running) throw noAccount();
      return running.jobs;
    },
    uploads() {
      if (!running) throw noAccount();
      return running.uploads;
    },
    setOutputsListener(listener) {
      outputsListener = listener;
    },
    async close() {
      stopOpened();
      stopClosing();
      await close();
    },
  };
}
