// Writes a fetched snapshot into the cache in ONE transaction and says what changed. Rows that
// entered the cache after the fetch began (the engine recording fresh outputs) are never removed.
import type { AccountDb } from '../db/account-db.ts';
import type { AssetKind, AssetServerFields } from '../db/record-fields.ts';
import type { RemoteSnapshot } from './fetch-snapshot.ts';
import { JOB_SCAN_STATE } from './job-scan.ts';

export interface ChangeCounts {
  added: number;
  updated: number;
  removed: number;
}

export interface AssetChangeCounts extends ChangeCounts {
  /** No longer on the service but kept for their local files. */
  gone: number;
}

export interface AppliedChanges {
  models: ChangeCounts | null;
  presets: ChangeCounts | null;
  assets: AssetChangeCounts | null;
  changedModelIds: string[];
  changedAssetKinds: AssetKind[];
}

const zero = (): ChangeCounts => ({ added: 0, updated: 0, removed: 0 });

export interface ApplyOptions {
  /** When the fetch started: rows younger than this were written by someone else meanwhile. */
  startedAt: number;
  now: number;
}

export function applySnapshot(cache: AccountDb, snapshot: RemoteSnapshot, options: ApplyOptions): AppliedChanges {
  return cache.transaction(() => {
    const changes: AppliedChanges = {
      models: null,
      presets: null,
      assets: null,
      changedModelIds: [],
      changedAssetKinds: [],
    };
    if (snapshot.models) applyModels(cache, snapshot, options, changes);
    if (snapshot.presets) changes.presets = cache.presets.replaceAll(snapshot.presets);
    if (snapshot.images && snapshot.videos) {
      const counts: AssetChangeCounts = { ...zero(), gone: 0 };
      const imageChanged = applyAssets(
        cache,
        'image',
        snapshot.images,
        (key) => isImageGone(snapshot, key.model_id),
        options,
        counts,
      );
      const videoChanged = applyAssets(cache, 'video', snapshot.videos, () => true, options, counts);
      cache.assets.linkUpscaleSources();
      if (snapshot.jobScan) cache.syncState.set(JOB_SCAN_STATE, snapshot.jobScan, options.now);
      changes.assets = counts;
      if (imageChanged) changes.changedAssetKinds.push('image');
      if (videoChanged) changes.changedAssetKinds.push('video');
    }
    return changes;
  });
}

function applyModels(cache: AccountDb, snapshot: RemoteSnapshot, options: ApplyOptions, changes: AppliedChanges): void {
  const counts = zero();
  const seen = new Set<string>();
  for (const fields of snapshot.models ?? []) {
    seen.add(fields.id);
    const outcome = cache.models.upsertFromServer(fields, options.now);
    if (outcome === 'unchanged') continue;
    counts[outcome === 'inserted' ? 'added' : 'updated'] += 1;
    changes.changedModelIds.push(fields.id);
  }
  for (const row of cache.models.list()) {
    if (seen.has(row.id) || row.local_created_at >= options.startedAt) continue;
    if (cache.models.delete(row.id)) {
      counts.removed += 1;
      changes.changedModelIds.push(row.id);
    }
  }
  changes.models = counts;
}

/**
 * An image missing from the lists is gone when its model's list was read completely, or when its
 * model no longer exists on the service (deleting a model deletes its images). Public-family
 * images have no list (the job scan finds new ones): absence never removes them.
 */
function isImageGone(snapshot: RemoteSnapshot, modelId: string | null): boolean {
  if (modelId === null) return false;
  return snapshot.listedImageModels.has(modelId) || !snapshot.knownModelIds.has(modelId);
}

function applyAssets(
  cache: AccountDb,
  kind: AssetKind,
  records: readonly AssetServerFields[],
  inScope: (key: { model_id: string | null }) => boolean,
  options: ApplyOptions,
  counts: AssetChangeCounts,
): boolean {
  let changed = false;
  const seen = new Set<string>();
  for (const fields of records) {
    seen.add(fields.id);
    const outcome = cache.assets.upsertFromServer(fields, options.now);
    if (outcome === 'unchanged') continue;
    counts[outcome === 'inserted' ? 'added' : 'updated'] += 1;
    changed = true;
  }
  for (const key of cache.assets.syncKeys(kind)) {
    if (seen.has(key.id) || key.remote_state === 'gone' || key.local_created_at >= options.startedAt || !inScope(key))
      continue;
    const outcome = cache.assets.removeFromServer(key);
    if (outcome === 'deleted') counts.removed += 1;
    if (outcome === 'gone') counts.gone += 1;
    if (outcome !== 'unchanged') changed = true;
  }
  return changed;
}
