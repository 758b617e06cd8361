// Composition root: builds the core's services from injected host adapters and returns the
// handlers of every contract channel, the event bus and a clean shutdown.
import { createDispatcher, type Dispatch, type Handlers } from './dispatch.ts';
import { createEventBus, type EventBus } from './events.ts';
import type { CoreContext, HostInfo } from './context.ts';
import { appHandlers } from './handlers/app.ts';
import { accountHandlers } from './handlers/account.ts';
import { settingsHandlers } from './handlers/settings.ts';
import { shellHandlers } from './handlers/shell.ts';
import { modelsHandlers } from './handlers/models.ts';
import { assetsHandlers } from './handlers/assets.ts';
import { presetsHandlers } from './handlers/presets.ts';
import { syncHandlers } from './handlers/sync.ts';
import { jobsHandlers } from './handlers/jobs.ts';
import { batchesHandlers } from './handlers/batches.ts';
import { experimentsHandlers } from './handlers/experiments.ts';
import { trainingHandlers } from './handlers/training.ts';
import { uploadsHandlers } from './handlers/uploads.ts';
import { libraryHandlers } from './handlers/library.ts';
import { collectionsHandlers } from './handlers/collections.ts';
import { marksHandlers } from './handlers/marks.ts';
import { trashHandlers } from './handlers/trash.ts';
import { marksImportHandlers } from './handlers/marks-import.ts';
import { familyHandlers } from './handlers/family.ts';
import { accountBudget, budgetHandlers } from './handlers/budget.ts';
import { followDemoLibrary } from './demo/demo-library.ts';
import { browserMediaUrl } from './library/library-host.ts';
import { createForeground } from './library/paced-work.ts';
import type { MediaReply, MediaRequest } from './library/library-host.ts';
import { createAccountServices, readyUploads } from './account-services.ts';
import { Disposables } from './host/disposables.ts';
import { withHostDefaults, type HostServices } from './host/host-services.ts';
import { gateNotifier } from './host/notifier.ts';
import { createPickedFolders } from './host/picked-folders.ts';
import { aggregateProgress } from './host/progress.ts';
import type { Settings } from './settings/settings.ts';
import type { ServiceClient } from './api/service-client.ts';
import { setUpAccounts } from './account/setup.ts';
import type { DemoService } from './account/types.ts';
import type { Cipher } from './secrets/cipher.ts';
import type { KeyValueStore } from './settings/store.ts';
import { createLogger, logFilePath, type Logger } from './log/logger.ts';
import { checkDataDir } from './data-dir.ts';
import { createServiceReach } from './host/service-reach.ts';
import { followServiceReach, refuseUnreachablePaidWork } from './service-reach-follow.ts';
import { systemTime, type EngineTime } from './host/time.ts';

export interface CoreDeps {
  dataDir: string;
  host: HostInfo;
  /** The host's redacting logger (one rotating file in the data folder). Default: logs/atelier.log there. */
  logger?: Logger;
  /** Where unexpected errors go. Default: the logger's error(). */
  logError?: (message: string, error: unknown) => void;
  /** Encrypts the API key at rest (the shell's safeStorage adapter). Default: none, session-only keys. */
  cipher?: Cipher;
  /** Where settings and the encrypted key persist. Default: `settings.json` in dataDir (settings/json-file-store.ts). */
  store?: KeyValueStore;
  /** Starts the emulator in-process for demo mode (browser mode, the shell). Absent: no demo. */
  demo?: DemoService;
  /** ATELIER_API_KEY as read by the host (CLI, tests): used for this process, never stored. */
  apiKeyOverride?: string | null;
  /** The host's notifications, power/online signals, progress and desktop actions. Default: quiet no-ops. */
  hostServices?: Partial<HostServices>;
  /**
   * The URL of a library file for the renderer: browser mode `/media/<path>` (the default), the
   * shell `atelier-media://library/<path>`. Hosts serve it with `Core.serveMedia`.
   */
  mediaUrlFor?: (relativePath: string) => string;
  /** The background engines' clock and timers (jobs, uploads). Default: the system's. Tests run it faster. */
  time?: EngineTime;
}

export interface Core {
  dispatch: Dispatch;
  events: EventBus;
  /** For the host itself (window state, close-to-tray, tray's pause); the renderer goes through settings:*. */
  settings: Settings;
  /** The open account's API client, for a host's raw call no channel covers (the CLI); 'auth' error without an account. */
  serviceClient(): ServiceClient;
  /** Serves a library file (Range, HEAD; nothing outside the library folder) for the host's route or protocol. */
  serveMedia(request: MediaRequest): Promise<MediaReply>;
  close(): Promise<void>;
}

export async function createCore(deps: CoreDeps): Promise<Core> {
  // A read-only or unwritable data folder is one clear sentence, before any write fails somewhere.
  checkDataDir(deps.dataDir);
  const ownLogger = deps.logger ? null : createLogger({ file: logFilePath(deps.dataDir) });
  const logger = deps.logger ?? (ownLogger as Logger);
  const logError = deps.logError ?? ((message: string, error: unknown) => logger.error(message, error));
  // What the core starts and must close, closed newest first by close(): the logger last.
  const lifetime = new Disposables((name, error) => logError(`Closing the ${name} failed`, error));
  if (ownLogger) lifetime.add('log', () => ownLogger.close());
  const events = createEventBus((error) => logError('event listener failed', error));
  const hostServices = withHostDefaults(deps.hostServices);
  // Connectivity measured from every request (service-reach-follow.ts ties it to the open account).
  let onServiceBack = (): void => {};
  const reach = createServiceReach({ events, power: hostServices.power, onBack: () => onServiceBack() });
  const { settings, accounts } = await setUpAccounts({
    dataDir: deps.dataDir,
    events,
    logger: logger.child('account'),
    ...(deps.cipher ? { cipher: deps.cipher } : {}),
    ...(deps.store ? { store: deps.store } : {}),
    ...(deps.demo ? { demo: deps.demo } : {}),
    apiKeyOverride: deps.apiKeyOverride ?? null,
    pairLegacyKey: deps.host.kind !== 'cli',
    onReach: reach.report,
  });
  lifetime.add('accounts', () => accounts.close());
  // The user's Notifications setting is honoured here, so no engine code has to remember it.
  hostServices.notifier = gateNotifier(hostServices.notifier, () => settings.get().notifications);
  const ctx: CoreContext = {
    dataDir: deps.dataDir,
    host: deps.host,
    events,
    account: () => accounts.info(),
    accounts,
    settings,
    hostServices,
    mediaUrlFor: deps.mediaUrlFor ?? browserMediaUrl,
  };
  // Every call and media file served: the library's background work waits for a quiet moment.
  const foreground = createForeground();
  // The open account's jobs engine, upload queue, library and syncer, built and closed together.
  // One taskbar/dock bar for every transfer: uploads and downloads add up into one fraction.
  const services = createAccountServices({
    dataDir: deps.dataDir,
    accounts,
    settings,
    events,
    hostServices,
    progress: aggregateProgress(hostServices.progress),
    logError,
    logInfo: (message) => logger.child('library').info(message),
    foreground,
    ...(deps.time ? { time: deps.time } : {}),
  });
  lifetime.add('account services', () => services.close());
  const libraryHost = services.library;
  const reachFollow = followServiceReach({ host: deps.host, accounts, services, reach, logError });
  lifetime.add('service reach', () => reachFollow.stop());
  onServiceBack = reachFollow.back;
  // Folders the main process's dialog returned: in the app, the only source of a new library folder.
  const pickedFolders = createPickedFolders();
  // The credit caps' one policy (core/budgets/), for the open account, on the engines' clock.
  const budget = { ctx, now: () => (deps.time ?? systemTime).now() };
  const handlers: Handlers = refuseUnreachablePaidWork(
    {
      ...appHandlers(ctx),
      ...accountHandlers(ctx),
      ...settingsHandlers(ctx),
      ...shellHandlers(ctx, pickedFolders),
      ...modelsHandlers({
        cache: services.cache,
        events,
        mediaUrlFor: ctx.mediaUrlFor,
        client: () => services.session().client,
        uploads: () => readyUploads(services),
      }),
      ...assetsHandlers({ cache: services.cache, mediaUrlFor: ctx.mediaUrlFor }),
      ...familyHandlers({ cache: services.cache, mediaUrlFor: ctx.mediaUrlFor }),
      ...presetsHandlers({ cache: services.cache, mediaUrlFor: ctx.mediaUrlFor }),
      ...syncHandlers({ syncer: services.syncer, reach }),
      ...jobsHandlers(services, ctx.mediaUrlFor, () => accountBudget(budget)),
      ...batchesHandlers(services),
      ...experimentsHandlers({
        host: services,
        mediaUrlFor: ctx.mediaUrlFor,
        budget: () => accountBudget(budget),
        now: budget.now,
      }),
      ...trainingHandlers(services),
      ...uploadsHandlers(services),
      ...libraryHandlers(libraryHost, { host: deps.host, picked: pickedFolders, settings }),
      ...collectionsHandlers({
        cache: services.cache,
        events,
        exportTo: async (refs, to) => (await libraryHost.library()).exportTo(refs, to),
      }),
      ...marksHandlers({ cache: services.cache, events }),
      ...trashHandlers({ library: libraryHost, mediaUrlFor: ctx.mediaUrlFor }),
      ...marksImportHandlers({ cache: services.cache, events }),
      ...budgetHandlers(budget),
    },
    reach,
  );
  const dispatch = createDispatcher(handlers, (channel, error) => logError(`handler ${channel} failed`, error));
  // The demo opens as a library in use (demo/demo-library.ts); its timers are the demo account's.
  lifetime.add(
    'demo library',
    followDemoLibrary({
      events,
      accounts,
      services,
      listCollections: () => handlers['collections:list'](undefined),
      logError,
    }),
  );
  return {
    dispatch: (channel, args) => {
      foreground.served();
      return dispatch(channel, args);
    },
    events,
    settings,
    serviceClient: () => accounts.requireSession().client,
    serveMedia: (request) => {
      foreground.served();
      return libraryHost.serveMedia(request);
    },
    close: () => lifetime.close(),
  };
}
