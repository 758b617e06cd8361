// AccountDb rows become the DTOs the handlers answer with (contract/ipc/*Info); an upload's is
// uploads/upload-info.ts (the queue emits it).
import type { AssetInfo } from '../../contract/ipc/assets.ts';
import type { ModelInfo } from '../../contract/ipc/models.ts';
import type { PresetInfo } from '../../contract/ipc/presets.ts';
import { modelName } from '../../contract/names.ts';
import { isModelUsable } from '../../contract/service.ts';
import { remotePosterLink, wantsPosterLink } from '../host/poster-links.ts';
import type { AssetRow } from '../db/repos/asset-row.ts';
import type { ModelRow, UploadedCounts } from '../db/repos/models-repo.ts';
import type { PresetWithSample } from '../db/repos/presets-repo.ts';
import { isoTime } from '../db/iso-time.ts';
import { isoOrNull, parseJson } from '../db/values.ts';

export function modelToInfo(row: ModelRow, uploads?: UploadedCounts): ModelInfo {
  return {
    id: row.id,
    label: row.label,
    displayName: modelName(row.id, { label: row.label, modelType: row.model_type }),
    modelType: row.model_type,
    status: row.status,
    usable: isModelUsable(row.status),
    createdAt: isoOrNull(row.created_at),
    updatedAt: isoOrNull(row.updated_at),
    training: {
      state: row.train_state,
      startedAt: isoOrNull(row.training_started_at),
      lastCheckedAt: isoOrNull(row.last_checked_at),
    },
    uploads: { trainingImages: uploads?.modelInput ?? 0, referenceImages: uploads?.auxiliaryType ?? 0 },
  };
}

/** Turns a library-relative path into the URL the renderer loads it from (the host decides). */
export type MediaUrlFor = (relativePath: string) => string;

/**
 * A video not downloaded yet (and still on the service) gets a poster link: asking for it makes
 * the library take a frame from the video's link in the background (poster-links.ts).
 */
function posterLinkOf(row: AssetRow, mediaUrlFor: MediaUrlFor): string | null {
  return wantsPosterLink(row) ? mediaUrlFor(remotePosterLink(row.id)) : null;
}

export function assetToInfo(row: AssetRow, mediaUrlFor: MediaUrlFor): AssetInfo {
  const frames = parseJson(row.frames);
  return {
    kind: row.kind,
    id: row.id,
    origin: row.origin,
    modelId: row.model_id,
    type: row.type,
    url: row.url,
    hls: row.hls === 1,
    upscaledImageId: row.upscaled_image_id,
    upscaledImageUrl: row.upscaled_image_url,
    sourceAssetId: row.source_asset_id,
    folderId: row.folder_id,
    publicMediaId: row.public_media_id,
    liked: row.liked === 1,
    favorite: row.favorite === 1,
    rating: row.rating,
    flag: row.flag,
    uploadName: row.upload_name,
    createdAt: isoTime(row.created_at),
    updatedAt: isoOrNull(row.updated_at),
    jobId: row.job_id,
    prompt: row.prompt,
    preset: row.preset,
    // Left as text: parsing every row's request was most of a page's cost (bench scenario 3).
    paramsJson: row.params,
    frames: Array.isArray(frames) ? frames : null,
    width: row.width,
    height: row.height,
    durationMs: row.duration_ms,
    format: row.format,
    factsFrom: row.facts_from,
    file: {
      state: row.file_state,
      path: row.local_path,
      thumbPath: row.thumb_path,
      // A local URL only once the file is really there: a partial file is never offered.
      localUrl: row.file_state === 'downloaded' && row.local_path ? mediaUrlFor(row.local_path) : null,
      thumbUrl: row.thumb_path ? mediaUrlFor(row.thumb_path) : posterLinkOf(row, mediaUrlFor),
      bytes: row.bytes,
    },
    removedFromService: row.remote_state === 'gone',
  };
}

export const presetToInfo = (row: PresetWithSample, mediaUrlFor: MediaUrlFor): PresetInfo => ({
  tag: row.tag,
  name: row.name,
  category: row.category,
  sampleUrl: row.sample_thumb ? mediaUrlFor(row.sample_thumb) : null,
});
