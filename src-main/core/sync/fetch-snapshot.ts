// Reads everything a refresh needs from the service BEFORE anything is written: if any request
// fails, the refresh fails as a whole and the cache is never touched.
import { AppError } from '../../contract/errors.ts';
import { PUBLIC_IMAGE_MODEL_IDS } from '../../contract/rules/index.ts';
import type { Model, Preset } from '../../contract/service.ts';
import { PAGE_SIZE } from '../../contract/service.ts';
import { assetFieldsFromImage, assetFieldsFromVideo, modelFields, presetFields } from '../api/server-records.ts';
import type { AssetServerFields, ModelServerFields, PresetFields } from '../db/record-fields.ts';
import { eachLimited } from './each-limited.ts';
import { isJobScanSource, scanJobs, type JobScanInput, type JobScanState } from './job-scan.ts';
import type { SyncSource } from './sync-source.ts';

export type SyncScope = 'all' | 'models' | 'presets';

export interface RemoteSnapshot {
  scope: SyncScope;
  models: ModelServerFields[] | null;
  presets: PresetFields[] | null;
  /** Every image of every listed model, deduplicated by id. NULL when the scope leaves images out. */
  images: AssetServerFields[] | null;
  /** Model ids whose image lists were read completely: only their missing images count as deleted. */
  listedImageModels: Set<string>;
  /** Ids the service knows as models (its list plus the public families): images of others are gone. */
  knownModelIds: Set<string>;
  videos: AssetServerFields[] | null;
  /** The job scan's new progress, to store with the snapshot; NULL when no scan ran. */
  jobScan: JobScanState | null;
  requests: number;
}

export interface FetchOptions {
  scope: SyncScope;
  signal?: AbortSignal;
  /** Model image lists (and job look-ups) read at once. Default 3. */
  concurrency?: number;
  /** What the job scan needs from the cache; without it (or a source without job calls) no scan runs. */
  jobScan?: Pick<JobScanInput, 'state' | 'now' | 'knownJobIds' | 'hasImage' | 'listGate'>;
}

const isNotFound = (error: unknown): boolean => error instanceof AppError && error.info.code === 'not_found';

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new AppError({
      code: 'internal',
      message: 'The refresh was stopped (the account changed or the app is closing).',
    });
}

export async function fetchSnapshot(source: SyncSource, options: FetchOptions): Promise<RemoteSnapshot> {
  const { scope, signal } = options;
  const call = signal ? { signal } : {};
  let requests = 0;
  const snapshot: RemoteSnapshot = {
    scope,
    models: null,
    presets: null,
    images: null,
    videos: null,
    listedImageModels: new Set(),
    knownModelIds: new Set(),
    jobScan: null,
    requests: 0,
  };

  let models: Model[] = [];
  if (scope !== 'presets') {
    requests += 1;
    models = await source.listModels(call);
    snapshot.models = dedupe(models.map(modelFields), (m) => m.id);
  }
  if (scope !== 'models') {
    checkAborted(signal);
    requests += 1;
    const presets: Preset[] = await source.listPresets(call);
    snapshot.presets = presets.map(presetFields);
  }
  if (scope === 'all') {
    const images = new Map<string, AssetServerFields>();
    // Only the caller's own models have image lists (deleted ones have nothing to list); public-family
    // outputs are found by the job scan below, and are never judged gone by their absence from a list.
    const listable = [...new Set(models.filter((m) => m.status?.toLowerCase() !== 'deleted').map((m) => m.id))];
    for (const model of models) snapshot.knownModelIds.add(model.id);
    for (const id of PUBLIC_IMAGE_MODEL_IDS) snapshot.knownModelIds.add(id);
    await eachLimited(listable, options.concurrency ?? 3, async (modelId) => {
      checkAborted(signal);
      const found: AssetServerFields[] = [];
      try {
        for await (const page of source.listModelImages(modelId, {
          imageType: 'all',
          pageSize: PAGE_SIZE.max,
          ...call,
        })) {
          requests += 1;
          for (const record of page.items) found.push(assetFieldsFromImage(record));
          checkAborted(signal);
        }
      } catch (error) {
        // A model deleted meanwhile is not a failed refresh: its images are simply left as they are.
        if (isNotFound(error)) return;
        throw error;
      }
      snapshot.listedImageModels.add(modelId);
      for (const fields of found) images.set(fields.id, fields);
    });
    const cached = options.jobScan;
    if (cached && isJobScanSource(source)) {
      checkAborted(signal);
      const scan = await scanJobs(source, {
        ...cached,
        hasImage: (id) => images.has(id) || cached.hasImage(id),
        concurrency: options.concurrency ?? 3,
        counted: () => (requests += 1),
        ...call,
      });
      for (const fields of scan.images) images.set(fields.id, fields);
      snapshot.jobScan = scan.state;
    }
    snapshot.images = [...images.values()];

    checkAborted(signal);
    const videos = new Map<string, AssetServerFields>();
    for await (const page of source.listVideos({ videoType: 'all', pageSize: PAGE_SIZE.max, ...call })) {
      requests += 1;
      for (const record of page.items) videos.set(record.id, assetFieldsFromVideo(record));
      checkAborted(signal);
    }
    snapshot.videos = [...videos.values()];
  }
  snapshot.requests = requests;
  return snapshot;
}

function dedupe<T>(items: T[], key: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [key(item), item])).values()];
}
