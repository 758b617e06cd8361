// What runs for the open account: its jobs engine, upload queue, library and syncer. Built here
// when an account opens (or is open already); each registers its stop in the account's one store
// of what outlives a call (host/disposables.ts), closed newest first before its database closes
// (on a switch or at quit). New job outputs reach the library through here, and only here is the
// Auto-download setting read. The engine's and the queue's code is loaded just after the start,
// not during it (the first screen reads the account's database only): handlers wait with ready().
import { dirname, join } from 'node:path';
import { AppError } from '../contract/errors.ts';
import { JobListGate } from './api/job-list-gate.ts';
import { loadAfterStart } from './after-start.ts';
import type { AccountManager } from './account/account-manager.ts';
import type { AccountSession } from './account/types.ts';
import type { AccountDb } from './db/account-db.ts';
import type { EventBus } from './events.ts';
import type { HostServices } from './host/host-services.ts';
import type { Foreground } from './library/paced-work.ts';
import type { ProgressAggregate } from './host/progress.ts';
import { Disposables } from './host/disposables.ts';
import { systemTime, type EngineTime } from './host/time.ts';
import type { JobsEngine } from './jobs/engine.ts';
import type { OutputAsset } from './jobs/outputs.ts';
import { createLibraryHost, type LibraryHost } from './library/library-host.ts';
import type { LibraryDeps } from './library/library.ts';
import type { Settings } from './settings/settings.ts';
import { BudgetGate } from './budgets/budget-gate.ts';
import { capsOf } from './budgets/credit-caps.ts';
import { createAccountSyncer } from './sync/account-syncer.ts';
import type { Syncer } from './sync/syncer.ts';
import type { UploadQueue } from './uploads/upload-queue.ts';

export interface AccountServicesDeps {
  dataDir: string;
  accounts: AccountManager;
  settings: Settings;
  events: EventBus;
  /** The notifier (gated by the Notifications setting) and the power signals. */
  hostServices: Pick<HostServices, 'notifier' | 'power'>;
  /** The taskbar/dock bar that uploads and downloads add up into. */
  progress?: ProgressAggregate;
  logError(message: string, error: unknown): void;
  logInfo?(message: string): void;
  /** Whom the library's background work gives way to (library/paced-work.ts). */
  foreground?: Foreground;
  /** Tests: a manual clock for the engine and the upload queue. */
  time?: EngineTime;
  /** Tests: shorter library intervals, an injected fetch. */
  libraryOptions?: Partial<LibraryDeps>;
}

export interface AccountServices {
  /** The open account, or an 'auth' error telling the user to add a key or try the demo. */
  session(): AccountSession;
  cache(): AccountDb;
  /** Resolves once the open account's engine and queue run (their code loads after the start). */
  ready(): Promise<void>;
  jobs(): JobsEngine;
  uploads(): UploadQueue;
  syncer(): Syncer;
  /** The open account's library, its folder moves and media serving (library-host.ts). */
  library: LibraryHost;
  /**
   * The open account's store of what outlives a call (a timer, a pending lookup): what is added
   * here is closed before the services that were running when it was added, on a switch or at quit.
   */
  lifetime(): Disposables;
  /** Stops everything of the open account (the account manager closes its database after). */
  close(): Promise<void>;
}

interface Running {
  session: AccountSession;
  /** Everything started for this account, closed newest first by stop(). */
  lifetime: Disposables;
  syncer: Syncer;
  /** Made once their code has loaded; null until then. */
  work: { jobs: JobsEngine; uploads: UploadQueue } | null;
  /** The engine and queue being made; null once made. */
  opening: Promise<void> | null;
}

const loadCode = () =>
  Promise.all([
    import('./jobs/account-engine.ts'),
    import('./uploads/upload-queue.ts'),
    import('./uploads/upload-service.ts'),
  ]).then(([engine, queue, service]) => ({
    createAccountJobsEngine: engine.createAccountJobsEngine,
    UploadQueue: queue.UploadQueue,
    uploadServiceFromClient: service.uploadServiceFromClient,
  }));

/** The open account's engine once its code has loaded (for handlers); an 'auth' error without an account. */
export async function readyJobs(services: AccountServices): Promise<JobsEngine> {
  await services.ready();
  return services.jobs();
}

/** The open account's upload queue once its code has loaded (for handlers); an 'auth' error without an account. */
export async function readyUploads(services: AccountServices): Promise<UploadQueue> {
  await services.ready();
  return services.uploads();
}

export function createAccountServices(deps: AccountServicesDeps): AccountServices {
  const { accounts, settings, events } = deps;
  const time = deps.time ?? systemTime;
  const library = createLibraryHost({
    dataDir: deps.dataDir,
    settings,
    events,
    ...(deps.progress ? { progress: deps.progress } : {}),
    logError: deps.logError,
    ...(deps.logInfo ? { logInfo: deps.logInfo } : {}),
    ...(deps.libraryOptions ? { libraryOptions: deps.libraryOptions } : {}),
    ...(deps.foreground ? { foreground: deps.foreground } : {}),
  });
  const logger = { warn: (message: string, error?: unknown) => deps.logError(message, error) };
  const code = loadAfterStart(loadCode);
  let running: Running | null = null;

  // Auto-download (on by default): the one place that decides whether new outputs are downloaded.
  const onOutputs = (assets: OutputAsset[]): void => {
    if (settings.get().autoDownload) library.enqueueOutputs(assets.map(({ kind, id }) => ({ kind, id })));
  };

  const makeWork = (
    { createAccountJobsEngine, UploadQueue, uploadServiceFromClient }: Awaited<ReturnType<typeof loadCode>>,
    session: AccountSession,
    listGate: JobListGate,
    lifetime: Disposables,
  ): { jobs: JobsEngine; uploads: UploadQueue } => {
    const jobs = createAccountJobsEngine(session, {
      events,
      settings,
      notifier: deps.hostServices.notifier,
      power: deps.hostServices.power,
      logger,
      onOutputs,
      listGate,
      // A batch asks the credit caps' one policy (core/budgets/) before each item, on the engine's clock.
      budget: new BudgetGate({
        jobs: session.cache.jobs,
        caps: () => capsOf(settings, accounts.info().id ?? ''),
        now: () => time.now(),
      }),
      ...(deps.time ? { time: deps.time } : {}),
    });
    const uploads = new UploadQueue({
      cache: session.cache,
      service: uploadServiceFromClient(session.client),
      time,
      emit: (info) => events.emit('uploads:changed', info),
      stagingDir: join(dirname(session.cache.file), 'upload-staging'),
      logger,
      ...(deps.progress ? { progress: deps.progress } : {}),
      onRateLimited: (retryAfterMs) => events.emit('service:rate-limited', { retryAfterMs, source: 'uploads' }),
    });
    jobs.start();
    lifetime.add('jobs engine', () => jobs.stop());
    uploads.start();
    lifetime.add('uploads', () => uploads.stop());
    return { jobs, uploads };
  };

  const start = (session: AccountSession): Running => {
    // One gate for the account's reads of the job list: the jobs engine's and the sync's job scan.
    const listGate = new JobListGate(time);
    const lifetime = new Disposables((name, error) =>
      deps.logError(`Stopping the ${name} of the account failed`, error),
    );
    const syncer = createAccountSyncer(session, events, listGate);
    lifetime.add('sync', () => syncer.close());
    const current: Running = { session, lifetime, syncer, work: null, opening: null };
    library.open(session);
    lifetime.add('library', () => library.closeSession());
    // A switch or a close before the code has loaded cancels them: they are never made (nor send anything).
    // Made later than the library and the sync, they are stopped before them.
    const made = code.loaded
      .then((loaded) => {
        if (running === current && !lifetime.closed) current.work = makeWork(loaded, session, listGate, lifetime);
      })
      .catch((error: unknown) => deps.logError('Loading the jobs engine failed', error))
      .finally(() => {
        current.opening = null;
      });
    current.opening = made;
    return current;
  };

  /**
   * Newest first (what the account's lifetime holds: timers, uploads, jobs engine, library, sync),
   * each awaited and each stopped even when another failed to.
   */
  const stop = async (): Promise<void> => {
    const current = running;
    running = null;
    if (current) await current.lifetime.close();
    else await library.closeSession();
  };

  /** Why the open account has no services (a database that cannot be written, …), until the next one opens. */
  let startFailed = false;
  const startFor = (session: AccountSession): Running | null => {
    try {
      running = start(session);
      startFailed = false;
    } catch (error) {
      startFailed = true;
      deps.logError("The account's jobs, uploads, library or sync could not start", error);
    }
    return running;
  };

  const stopOpened = accounts.onSessionOpened((session) => {
    if (running?.session.cache === session.cache) return;
    // A first refresh whenever an account opens, in the background: opening must not wait for the network.
    startFor(session)
      ?.syncer.refresh('all')
      .catch((error: unknown) => deps.logError('The first refresh of the account failed', error));
  });
  const stopClosing = accounts.onSessionClosing(async (session) => {
    if (running?.session.cache === session.cache) await stop();
  });
  // The account opened before the core was built (start-up, the CLI): its refresh is the renderer's or the command's call.
  const open = accounts.current();
  if (open) startFor(open);

  const couldNotStart = () =>
    new AppError({
      code: 'internal',
      message: 'This account could not start; the reason is in the log (Help → Open logs folder).',
    });
  // Between the switch and the start of the next account's services (or their code loading).
  const opening = () => new AppError({ code: 'conflict', message: 'The account is opening; try again in a moment.' });

  const require = (): Running => {
    if (running) return running;
    accounts.requireSession(); // throws the 'auth' error that names what to do
    throw startFailed ? couldNotStart() : opening();
  };
  const requireWork = (): NonNullable<Running['work']> => {
    const current = require();
    if (current.work) return current.work;
    throw current.opening ? opening() : couldNotStart();
  };

  return {
    session: () => require().session,
    cache: () => require().session.cache,
    async ready() {
      const pending = running?.opening;
      if (!pending) return;
      await code.now();
      await pending;
    },
    jobs: () => requireWork().jobs,
    uploads: () => requireWork().uploads,
    syncer: () => require().syncer,
    library,
    lifetime: () => require().lifetime,
    async close() {
      stopOpened();
      stopClosing();
      await stop();
      await library.close();
    },
  };
}
