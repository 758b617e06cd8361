// Decides which account is open (none, the in-process demo, or the service with the user's
// key), owns its database and API client, and switches cleanly: the next account is opened
// before anything is committed, so a failure leaves the previous one untouched.
import { dirname } from 'node:path';
import { AppError } from '../../contract/errors.ts';
import type { AccountInfo, AccountOpenProblemInfo } from '../../contract/ipc/app.ts';
import type { ServiceClient } from '../api/service-client.ts';
import { accountId } from '../db/account-path.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { EventBus } from '../events.ts';
import { keyFingerprint } from '../secrets/fingerprint.ts';
import type { KeyStore } from '../secrets/key-store.ts';
import type { Settings } from '../settings/settings.ts';
import {
  DEMO_AREA,
  type AccountLogger,
  type AccountRef,
  type AccountSession,
  type DemoService,
  type SessionListener,
} from './types.ts';
import { verifyKey } from './verify-key.ts';

export interface AccountManagerDeps {
  settings: Settings;
  keyStore: KeyStore;
  demo?: DemoService;
  /** Opens (creating and migrating as needed) the database of one account. */
  openDatabase(account: AccountRef): AccountDb;
  /** `getApiKey` is called for every request, so a removed key stops being sent at once. */
  createClient(options: { baseUrl: string; getApiKey: () => string | null }): ServiceClient;
  /** Releases what a client holds (keep-alive sockets) once its account is closed. */
  closeClient?(client: ServiceClient): void;
  /** One cheap authenticated request with a candidate key, before it is saved (GET /models). */
  checkKey(candidate: { baseUrl: string; key: string }): Promise<unknown>;
  /** Sets an account database that could not be opened aside (renamed next to it with `label`). */
  setAsideDatabase?(file: string, label: string): void;
  events: EventBus;
  logger: AccountLogger;
}

export interface AccountManager {
  /** Opens the account the saved settings and key call for. Call once after creation. */
  start(): Promise<AccountInfo>;
  info(): AccountInfo;
  /** The open account, or null. */
  current(): AccountSession | null;
  /** The open account, or an 'auth' error telling the user to add a key or try the demo. */
  requireSession(): AccountSession;
  /** `baseUrl` given: the key is checked against and paired with that address, which becomes the setting. */
  setKey(key: string, options?: { verify?: boolean; baseUrl?: string }): Promise<AccountInfo>;
  removeKey(): Promise<AccountInfo>;
  useDemo(): Promise<AccountInfo>;
  leaveDemo(): Promise<AccountInfo>;
  /** After an open failure (info().openProblem): sets the old database aside, kept, and opens a fresh one. */
  startFresh(): Promise<AccountInfo>;
  /** Re-applies settings and key storage policy (after the base URL or the opt-in changed). */
  reconcile(): Promise<AccountInfo>;
  /** Resolves once every queued switch has finished. */
  settled(): Promise<void>;
  /** Awaited before an account's database is closed: stop using it. */
  onSessionClosing(listener: SessionListener): () => void;
  onSessionOpened(listener: SessionListener): () => void;
  close(): Promise<void>;
}

type Target = { mode: 'none' } | { mode: 'demo' } | { mode: 'service'; baseUrl: string; fingerprint: string };

interface OpenSession extends AccountSession {
  identity: string;
  /** The account's opaque name (its database folder's), announced in AccountInfo.id. */
  id: string;
}

/** What others see of the open session (without the manager's identity key). */
const publicView = ({ mode, cache, client, baseUrl, area }: OpenSession): AccountSession => ({
  mode,
  cache,
  client,
  baseUrl,
  area,
});

const identityOf = (target: Target): string =>
  target.mode === 'service' ? `service ${target.baseUrl} ${target.fingerprint}` : target.mode;

export function createAccountManager(deps: AccountManagerDeps): AccountManager {
  const { settings, keyStore, logger } = deps;
  const closingListeners = new Set<SessionListener>();
  const openedListeners = new Set<SessionListener>();
  let session: OpenSession | null = null;
  let demoEndpoint: { baseUrl: string; apiKey: string } | null = null;
  let lastAnnounced = '';
  let closed = false;
  /** Why the wanted account did not open; shown instead of a bare "no account" until one opens. */
  let openProblem: { info: AccountOpenProblemInfo; file: string | null } | null = null;

  /** Remembers why opening failed, in words the user can act on (the details go to the log too). */
  const noteOpenFailure = (error: unknown): void => {
    const failure = error as { kind?: unknown; file?: unknown } | null;
    const file = typeof failure?.file === 'string' ? failure.file : null;
    const kind = typeof failure?.kind === 'string' ? (failure.kind as AccountOpenProblemInfo['kind']) : 'other';
    const message =
      error instanceof AppError
        ? error.info.message
        : 'The saved account could not be opened; the reason is in the log (Help → Open logs folder).';
    openProblem = {
      info: {
        kind,
        message,
        folder: file === null ? null : dirname(file),
        canStartFresh: file !== null && ['newer', 'damaged', 'unreadable'].includes(kind),
      },
      file,
    };
  };

  // One switch at a time: two quick clicks must not open two databases or start two emulators.
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => {});
    return run;
  };

  const info = (): AccountInfo => {
    const key = keyStore.status();
    return {
      mode: session?.mode ?? 'none',
      id: session?.id ?? null,
      keyConfigured: key.configured,
      keyStorage: key.storage,
      baseUrl: session?.baseUrl ?? null,
      ...(!session && openProblem ? { openProblem: openProblem.info } : {}),
    };
  };

  const announce = (): AccountInfo => {
    const now = info();
    const text = JSON.stringify(now);
    if (text !== lastAnnounced) {
      lastAnnounced = text;
      deps.events.emit('account:changed', now);
    }
    return now;
  };

  /** What the saved choice and the key call for. */
  const wanted = (): Target => {
    if (settings.get().mode === 'demo' && deps.demo) return { mode: 'demo' };
    return serviceTarget();
  };

  /** The service account of the saved key, or none. */
  const serviceTarget = (): Target => {
    const saved = settings.get();
    const fingerprint = keyStore.fingerprint();
    if (!fingerprint) return { mode: 'none' };
    // The key goes only to the address it was entered for: an address changed by anything else
    // (another process, a hand edit) leaves the account closed until the key is entered again.
    const paired = keyStore.pairedBaseUrl();
    if (paired !== null && paired !== saved.baseUrl) {
      logger.warn('The service address differs from the one the API key was entered for; enter the key again.');
      return { mode: 'none' };
    }
    return { mode: 'service', baseUrl: saved.baseUrl, fingerprint };
  };

  const stopDemo = async (): Promise<void> => {
    if (!demoEndpoint || !deps.demo) return;
    demoEndpoint = null;
    try {
      await deps.demo.stop();
    } catch (error) {
      logger.warn('Stopping the demo service failed', error);
    }
  };

  const open = async (target: Exclude<Target, { mode: 'none' }>): Promise<OpenSession> => {
    const identity = identityOf(target);
    if (target.mode === 'demo') {
      if (!deps.demo) throw new AppError({ code: 'unsupported', message: 'Demo mode is not available here.' });
      const startedHere = !demoEndpoint;
      const endpoint = (demoEndpoint ??= await deps.demo.start());
      try {
        const client = deps.createClient({ baseUrl: endpoint.baseUrl, getApiKey: () => endpoint.apiKey });
        const cache = deps.openDatabase('demo');
        return {
          mode: 'demo',
          identity,
          id: accountId('demo'),
          baseUrl: endpoint.baseUrl,
          cache,
          client,
          area: DEMO_AREA,
        };
      } catch (error) {
        if (startedHere) await stopDemo();
        throw error;
      }
    }
    const { baseUrl, fingerprint } = target;
    // A client outliving its account (a request in flight during a switch) must not carry the
    // next account's key: it sends a key only while that key is still the one it was made for.
    const getApiKey = () => (keyStore.fingerprint() === fingerprint ? keyStore.get() : null);
    const ref = { baseUrl, keyFingerprint: fingerprint };
    const cache = deps.openDatabase(ref);
    try {
      const client = deps.createClient({ baseUrl, getApiKey });
      return { mode: 'service', identity, id: accountId(ref), baseUrl, cache, client, area: '' };
    } catch (error) {
      cache.close();
      throw error;
    }
  };

  const closeSession = async (previous: OpenSession): Promise<void> => {
    for (const listener of closingListeners) {
      try {
        await listener(previous);
      } catch (error) {
        logger.warn('A part of the app failed to let go of the previous account', error);
      }
    }
    try {
      previous.cache.close();
    } catch (error) {
      logger.warn('Closing the previous account database failed', error);
    }
    try {
      deps.closeClient?.(previous.client);
    } catch (error) {
      logger.warn('Closing the previous account client failed', error);
    }
  };

  /** Opens the target, then commits (saves key or choice), then closes the previous account. */
  const switchTo = async (target: Target, commit: () => void = () => {}): Promise<AccountInfo> => {
    if (closed) throw new AppError({ code: 'internal', message: 'The app is shutting down.' });
    const identity = identityOf(target);
    if (identity === (session?.identity ?? 'none')) {
      commit();
      return announce();
    }
    const next = target.mode === 'none' ? null : await open(target);
    try {
      commit();
    } catch (error) {
      if (next) {
        next.cache.close();
        deps.closeClient?.(next.client);
      }
      throw error;
    }
    const previous = session;
    session = next;
    if (next) openProblem = null;
    if (previous) await closeSession(previous);
    if (previous?.mode === 'demo' && next?.mode !== 'demo') await stopDemo();
    logger.info(`Account: ${next ? `${next.mode} at ${next.baseUrl}` : 'none'}`);
    if (next) {
      for (const listener of openedListeners) {
        try {
          await listener(next);
        } catch (error) {
          logger.warn('A part of the app failed to start with the new account', error);
        }
      }
    }
    return announce();
  };

  const reconcile = () =>
    serial(async () => {
      keyStore.reconcile();
      return switchTo(wanted());
    });

  const stopWatchingSettings = settings.onChange((_values, changed) => {
    if (changed.includes('baseUrl') || changed.includes('allowWeakKeyStorage')) {
      reconcile().catch((error: unknown) => logger.warn('Switching account after a settings change failed', error));
    }
  });

  const setMode = (mode: 'none' | 'demo' | 'service') => {
    if (settings.get().mode !== mode) settings.update({ mode });
  };

  return {
    start: () =>
      serial(async () => {
        try {
          return await switchTo(wanted());
        } catch (error) {
          logger.warn('Opening the saved account failed; starting without one', error);
          noteOpenFailure(error);
          return announce();
        }
      }),
    info,
    current: () => (session ? publicView(session) : null),
    requireSession() {
      if (!session) {
        throw new AppError({ code: 'auth', message: 'No account yet: add your API key in Settings, or try the demo.' });
      }
      return publicView(session);
    },
    setKey: (key, options = {}) =>
      serial(async () => {
        const baseUrl = options.baseUrl ?? settings.get().baseUrl;
        if (options.verify ?? true) {
          await verifyKey({ baseUrl, key, checkKey: deps.checkKey, logger });
        }
        const target: Target = { mode: 'service', baseUrl, fingerprint: keyFingerprint(key) };
        return switchTo(target, () => {
          keyStore.set(key, baseUrl);
          if (settings.get().baseUrl !== baseUrl) settings.update({ baseUrl });
          setMode('service');
        });
      }),
    removeKey: () =>
      serial(() =>
        switchTo(session?.mode === 'demo' ? { mode: 'demo' } : { mode: 'none' }, () => {
          keyStore.remove();
          if (settings.get().mode === 'service') setMode('none');
        }),
      ),
    useDemo: () => serial(() => switchTo({ mode: 'demo' }, () => setMode('demo'))),
    leaveDemo: () =>
      serial(async () => {
        const target = serviceTarget();
        return switchTo(target, () => setMode(target.mode === 'service' ? 'service' : 'none'));
      }),
    reconcile,
    startFresh: () =>
      serial(async () => {
        const problem = openProblem;
        if (session || !problem?.file || !problem.info.canStartFresh || !deps.setAsideDatabase) {
          throw new AppError({
            code: 'conflict',
            message: 'There is nothing to start fresh from: the account database opened normally.',
          });
        }
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        deps.setAsideDatabase(problem.file, `${problem.info.kind}-${stamp}`);
        logger.info(`Set the account database aside (${problem.info.kind}) and starting fresh`);
        try {
          return await switchTo(wanted());
        } catch (error) {
          noteOpenFailure(error);
          announce();
          throw error;
        }
      }),
    settled: () => tail.then(() => {}),
    onSessionClosing(listener) {
      closingListeners.add(listener);
      return () => closingListeners.delete(listener);
    },
    onSessionOpened(listener) {
      openedListeners.add(listener);
      return () => openedListeners.delete(listener);
    },
    close: () =>
      serial(async () => {
        if (closed) return;
        closed = true;
        stopWatchingSettings();
        const previous = session;
        session = null;
        if (previous) await closeSession(previous);
        await stopDemo();
      }),
  };
}
