// Ties sync to the open account: the account's cache and one syncer per account session, events
// to the renderer after each refresh, a first refresh when an account opens, and a clean stop
// when it closes.
import { AppError } from '../../contract/errors.ts';
import type { SyncResultInfo } from '../../contract/ipc/sync.ts';
import { cacheOf, type Cache } from '../db/cache.ts';
import type { SqliteDatabase } from '../db/database.ts';
import type { EventBus } from '../events.ts';
import type { AppliedChanges } from './apply-snapshot.ts';
import type { SyncSource } from './sync-source.ts';
import { createSyncer, type Syncer } from './syncer.ts';

interface Session {
  db: SqliteDatabase | Cache;
  client: unknown;
}

/** The slice of the account manager this needs (structural, so tests can pass a stand-in). */
export interface SessionProvider {
  requireSession(): Session;
  onSessionOpened(listener: (session: Session) => void | Promise<void>): () => void;
  onSessionClosing(listener: (session: Session) => void | Promise<void>): () => void;
}

export interface AccountSync {
  /** The open account's cache; an 'auth' error when no account is open. */
  cache(): Cache;
  /** The open account's syncer. */
  syncer(): Syncer;
  dispose(): void;
}

const SYNC_METHODS = ['listModels', 'listPresets', 'listModelImages', 'listVideos'] as const;

function asSyncSource(client: unknown): SyncSource | null {
  if (typeof client !== 'object' || client === null) return null;
  const record = client as Record<string, unknown>;
  return SYNC_METHODS.every((name) => typeof record[name] === 'function') ? (client as SyncSource) : null;
}

export function emitSyncEvents(events: EventBus, result: SyncResultInfo, changes: AppliedChanges): void {
  events.emit('sync:changed', result);
  if (changes.changedModelIds.length > 0)
    events.emit('models:changed', { reason: 'sync', ids: changes.changedModelIds });
  if (changes.changedAssetKinds.length > 0)
    events.emit('assets:changed', { reason: 'sync', kinds: changes.changedAssetKinds });
}

export function createAccountSync(options: {
  accounts: SessionProvider;
  events: EventBus;
  logWarning: (message: string, error?: unknown) => void;
  /** Refresh everything when an account opens. Default true. */
  refreshOnOpen?: boolean;
}): AccountSync {
  const { accounts, events } = options;
  const syncers = new WeakMap<object, Syncer>();

  const keyOf = (session: Session): object => cacheOf(session.db);

  const syncerOf = (session: Session): Syncer | null => {
    const cache = cacheOf(session.db);
    let syncer = syncers.get(cache);
    if (syncer) return syncer;
    const source = asSyncSource(session.client);
    if (!source) return null;
    syncer = createSyncer({
      cache,
      source,
      onSynced: (result, changes) => emitSyncEvents(events, result, changes),
      onStatus: (status) => events.emit('sync:status-changed', status),
    });
    syncers.set(cache, syncer);
    return syncer;
  };

  const stopOpened = accounts.onSessionOpened((session) => {
    if (options.refreshOnOpen === false) return;
    // In the background: opening an account must not wait for the network.
    syncerOf(session)
      ?.refresh('all')
      .catch((error: unknown) => options.logWarning('The first refresh of the account failed', error));
  });
  const stopClosing = accounts.onSessionClosing(async (session) => {
    await syncers.get(keyOf(session))?.close();
  });

  return {
    cache: () => cacheOf(accounts.requireSession().db),
    syncer() {
      const syncer = syncerOf(accounts.requireSession());
      if (!syncer)
        throw new AppError({ code: 'unsupported', message: 'This account cannot refresh from the service yet.' });
      return syncer;
    },
    dispose() {
      stopOpened();
      stopClosing();
    },
  };
}
