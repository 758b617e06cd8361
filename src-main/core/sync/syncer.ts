// Runs refreshes of one account's cache: one at a time (a second request joins the running one
// when it covers the same ground), with status kept for the renderer and events on completion.
import type { JobListGate } from '../api/job-list-gate.ts';
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import type { SyncResultInfo, SyncScopeInfo, SyncStatusInfo } from '../../contract/ipc/sync.ts';
import type { AccountDb } from '../db/account-db.ts';
import { applySnapshot, type AppliedChanges } from './apply-snapshot.ts';
import { fetchSnapshot } from './fetch-snapshot.ts';
import { JOB_SCAN_STATE, type JobScanState } from './job-scan.ts';
import type { SyncSource } from './sync-source.ts';

/** sync_state key of the last complete refresh (value: its SyncResultInfo). */
export const LAST_FULL_SYNC = 'sync.lastFull';

export interface SyncerDeps {
  cache: AccountDb;
  source: SyncSource;
  now?: () => number;
  /** Called after each successful refresh with what changed (the handler layer turns it into events). */
  onSynced?: (result: SyncResultInfo, changes: AppliedChanges) => void;
  onStatus?: (status: SyncStatusInfo) => void;
  concurrency?: number;
  /** The account's one gate for GET /jobs (shared with the jobs engine): the job scan waits its turn. */
  listGate?: JobListGate;
}

export interface Syncer {
  refresh(scope?: SyncScopeInfo): Promise<SyncResultInfo>;
  status(): SyncStatusInfo;
  /** Stops a running refresh (nothing is written) and refuses new ones: the account is closing. */
  /** Stops any refresh and resolves once nothing touches the database any more. */
  close(): Promise<void>;
}

const covers = (running: SyncScopeInfo, wanted: SyncScopeInfo): boolean => running === 'all' || running === wanted;

function hasChanges(changes: AppliedChanges): boolean {
  const parts = [changes.models, changes.presets, changes.assets];
  return parts.some((c) => c !== null && c.added + c.updated + c.removed > 0) || (changes.assets?.gone ?? 0) > 0;
}

function errorInfoOf(error: unknown): ErrorInfo {
  if (error instanceof AppError) return error.info;
  return { code: 'internal', message: 'The refresh failed unexpectedly. Details are in the log.' };
}

export function createSyncer(deps: SyncerDeps): Syncer {
  const now = deps.now ?? Date.now;
  let running: { scope: SyncScopeInfo; promise: Promise<SyncResultInfo> } | null = null;
  let lastError: ErrorInfo | null = null;
  const controller = new AbortController();

  const status = (): SyncStatusInfo => {
    const last = deps.cache.syncState.get<SyncResultInfo>(LAST_FULL_SYNC);
    return {
      running: running !== null,
      scope: running?.scope ?? null,
      lastSyncedAt: last?.value?.syncedAt ?? null,
      lastError,
    };
  };

  const run = async (scope: SyncScopeInfo): Promise<SyncResultInfo> => {
    const startedAt = now();
    const snapshot = await fetchSnapshot(deps.source, {
      scope,
      signal: controller.signal,
      ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
      jobScan: {
        state: deps.cache.syncState.get<JobScanState>(JOB_SCAN_STATE)?.value ?? null,
        now: startedAt,
        knownJobIds: (ids) => deps.cache.jobs.knownJobIds(ids),
        hasImage: (id) => deps.cache.assets.get('image', id) !== undefined,
        ...(deps.listGate ? { listGate: deps.listGate } : {}),
      },
    });
    if (controller.signal.aborted) throw new AppError({ code: 'internal', message: 'The refresh was stopped.' });
    const finishedAt = now();
    const changes = applySnapshot(deps.cache, snapshot, { startedAt, now: finishedAt });
    const result: SyncResultInfo = {
      scope,
      models: changes.models,
      presets: changes.presets,
      assets: changes.assets,
      changed: hasChanges(changes),
      changedAssetKinds: changes.changedAssetKinds,
      syncedAt: new Date(finishedAt).toISOString(),
      durationMs: finishedAt - startedAt,
      requests: snapshot.requests,
    };
    if (scope === 'all') deps.cache.syncState.set(LAST_FULL_SYNC, result, finishedAt);
    deps.onSynced?.(result, changes);
    return result;
  };

  return {
    refresh(scope = 'all') {
      if (controller.signal.aborted) {
        return Promise.reject(
          new AppError({ code: 'internal', message: 'This account is closing; the refresh was not started.' }),
        );
      }
      if (running && covers(running.scope, scope)) return running.promise;
      // A narrower refresh is running: run after it rather than beside it (one writer, one fetch at a time).
      const previous = running?.promise.catch(() => undefined) ?? Promise.resolve();
      const promise = previous
        .then(() => run(scope))
        .then(
          (result) => {
            lastError = null;
            return result;
          },
          (error: unknown) => {
            lastError = errorInfoOf(error);
            throw error;
          },
        )
        .finally(() => {
          if (running?.promise === promise) running = null;
          deps.onStatus?.(status());
        });
      running = { scope, promise };
      deps.onStatus?.(status());
      return promise;
    },
    status,
    async close() {
      controller.abort();
      // Let a refresh that is already writing finish before the database closes under it.
      await running?.promise.catch(() => undefined);
    },
  };
}
