// Refreshing the local cache from the service: models, presets, every model's images and the
// videos. All is fetched first and written at once, so a failed refresh changes nothing.
import * as v from 'valibot';
import type { ErrorInfo } from '../errors.ts';
import { invoke, type } from './channel.ts';
import type { AssetKindInfo } from './library.ts';

export type SyncScopeInfo = 'all' | 'models' | 'presets';

export interface SyncCountsInfo {
  added: number;
  updated: number;
  removed: number;
}

export interface SyncResultInfo {
  scope: SyncScopeInfo;
  /** null for parts the scope left out. */
  models: SyncCountsInfo | null;
  presets: SyncCountsInfo | null;
  /** `gone`: no longer on the service but kept for their local copies. */
  assets: (SyncCountsInfo & { gone: number }) | null;
  changed: boolean;
  changedAssetKinds: AssetKindInfo[];
  syncedAt: string;
  durationMs: number;
  /** Requests made to the service. */
  requests: number;
}

export interface SyncStatusInfo {
  running: boolean;
  scope: SyncScopeInfo | null;
  /** Last complete refresh of everything (from the cache, so it survives restarts). */
  lastSyncedAt: string | null;
  /** The last attempt's failure; cleared by the next success. */
  lastError: ErrorInfo | null;
}

export const syncInvoke = {
  /** Joins a refresh already running for the same or a wider scope instead of starting another. */
  'sync:refresh': invoke(
    v.optional(
      v.strictObject({
        scope: v.optional(v.picklist(['all', 'models', 'presets'], 'scope must be all, models or presets.'), 'all'),
      }),
      {},
    ),
    type<SyncResultInfo>(),
  ),
  'sync:status': invoke(v.undefined(), type<SyncStatusInfo>()),
  /** Whether the open account's service can be reached, as last measured (no request). */
  'service:status': invoke(v.undefined(), type<ServiceReachInfo>()),
  /** Checks the open account's service now (a cheap request) and answers what is known after. */
  'service:check': invoke(v.undefined(), type<ServiceReachInfo>()),
};

/** The service answered 429 to background work: it waits this long before asking again. */
export interface RateLimitedInfo {
  retryAfterMs: number;
  source: 'jobs' | 'training' | 'uploads';
}

/**
 * What the last request to the service learnt: it answered (any HTTP status), or it could not be
 * reached; null until the open account's first check ends (events always carry true or false).
 */
export interface ServiceReachInfo {
  reachable: boolean | null;
}

export const syncEvents = {
  /** The service became reachable or unreachable, judged from real requests (sent only on a change). */
  'service:reach': type<ServiceReachInfo>(),
  /** Background work (checking jobs or training, uploading) was asked to slow down. */
  'service:rate-limited': type<RateLimitedInfo>(),
  /** After every successful refresh (also when nothing changed). */
  'sync:changed': type<SyncResultInfo>(),
  /** When a refresh starts, ends or fails. */
  'sync:status-changed': type<SyncStatusInfo>(),
};
