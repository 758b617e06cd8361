// A finished job's images or videos become library assets, linked to the job and to the request
// that made them (remix, search), and an upscale to its source image. An asset the library
// already knows (a sync got there first) keeps its server fields; only the lineage is written.
import type { JobOutputInfo } from '../../contract/ipc/jobs.ts';
import type { Job } from '../../contract/service.ts';
import type { AccountDb } from '../db/account-db.ts';
import { assetFieldsFromImage, assetFieldsFromVideo, isHlsUrl } from '../api/server-records.ts';
import type { AssetKind } from '../db/record-fields.ts';
import { requestOf } from './job-info.ts';
import type { JobRow } from '../db/repos/jobs-repo.ts';

/** What the library's download queue needs to fetch a new output. */
export interface OutputAsset {
  seq: number;
  kind: AssetKind;
  id: string;
  url: string;
  hls: boolean;
  jobId: string;
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function outputKindOf(row: JobRow, job: Job): AssetKind {
  // A job found on the service and not tied to a request: only its record says what it made.
  if (row.unattributed === 1) return job.videos && job.videos.length > 0 ? 'video' : 'image';
  if (row.kind === 'video') return 'video';
  if (row.kind === 'image' || row.kind === 'upscale') return 'image';
  return job.videos && job.videos.length > 0 ? 'video' : 'image';
}

/**
 * Writes the outputs (call inside the transaction that marks the job succeeded). A job not tied to a
 * request (unattributed) gets no prompt, model, preset or settings: nothing of any request reaches
 * its files (the library embeds settings only where the asset has some).
 */
export function recordOutputs(
  cache: AccountDb,
  row: JobRow,
  job: Job,
  now: number,
): { infos: JobOutputInfo[]; assets: OutputAsset[]; upscaledSource: string | null } {
  const kind = outputKindOf(row, job);
  const items = (kind === 'video' ? job.videos : job.images) ?? [];
  const own = row.unattributed !== 1;
  const request = requestOf(row);
  const sourceId = row.kind === 'upscale' ? textOf(request['imageID']) : null;
  const source = sourceId ? cache.assets.get('image', sourceId) : undefined;
  const prompt = textOf(request['prompt']) ?? source?.prompt ?? null;
  const modelId = row.model_id ?? textOf(request['modelID']) ?? source?.model_id ?? null;
  const infos: JobOutputInfo[] = [];
  const assets: OutputAsset[] = [];
  for (const output of items) {
    if (!cache.assets.get(kind, output.id)) {
      const record = { id: output.id, url: output.url, modelID: modelId ?? '', type: '', jobId: job.jobId };
      const fields = kind === 'video' ? assetFieldsFromVideo(record) : assetFieldsFromImage(record);
      cache.assets.upsertFromServer({ ...fields, origin: 'generated', createdAt: fields.createdAt ?? now }, now);
    }
    cache.assets.recordGeneration(
      kind,
      output.id,
      own
        ? { jobId: job.jobId, sourceAssetId: sourceId, prompt, params: request, preset: textOf(request['preset']) }
        : { jobId: job.jobId, sourceAssetId: null, prompt: null, params: null, preset: null },
    );
    const asset = cache.assets.get(kind, output.id);
    const hls = isHlsUrl(output.url);
    infos.push({ kind, id: output.id, url: output.url, assetSeq: asset?.seq ?? null, hls });
    if (asset) assets.push({ seq: asset.seq, kind, id: output.id, url: output.url, hls, jobId: job.jobId });
  }
  // The source shows its upscale at once, as the service's record of it will after a refresh.
  const upscale = source ? items.at(-1) : undefined;
  if (source && upscale) cache.assets.setUpscaledVersion(source.seq, upscale.id, upscale.url);
  return { infos, assets, upscaledSource: source && upscale ? source.id : null };
}
