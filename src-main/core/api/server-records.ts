// Turns the service's records (spec §2) into the column values the cache stores, plus hints
// read from the free-form `data` object that only fill local fields the app has not set itself.
import { createHash } from 'node:crypto';
import type { ImageRecord, Model, Preset, VideoRecord } from '../../contract/service.ts';
import type { AssetServerFields, ModelServerFields, PresetFields } from '../db/record-fields.ts';
import { jsonOrNull, parseTime, positiveIntOrNull, textOrNull } from '../db/values.ts';

/** Image types that are the user's own uploads (spec §4 upload types), not generated media. */
const UPLOADED_IMAGE_TYPES: ReadonlySet<string> = new Set(['modelInput', 'auxiliaryType']);

/** A short digest of a record as received: equal digests mean nothing to write. */
export const recordHash = (record: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(record) ?? '', 'utf8')
    .digest('hex')
    .slice(0, 20);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A playlist url (HLS) streams online; an offline copy needs the playlist and its segments. */
export function isHlsUrl(url: string | null): boolean {
  if (!url) return false;
  try {
    return new URL(url).pathname.toLowerCase().endsWith('.m3u8');
  } catch {
    return url.toLowerCase().split('?')[0]?.endsWith('.m3u8') ?? false;
  }
}

/** What the free-form `data` object may tell of an asset (the columns it only hints at). */
type DataHints = Pick<
  AssetServerFields,
  'jobId' | 'sourceAssetId' | 'prompt' | 'params' | 'preset' | 'width' | 'height' | 'durationMs' | 'format'
>;

/** A format word as the service may name it ('png', 'JPEG'), else null: never free text. */
const formatOrNull = (value: unknown): string | null =>
  typeof value === 'string' && /^[A-Za-z0-9]{2,8}$/.test(value) ? value.toLowerCase() : null;

/** The spec leaves `data` open; these keys are read if present and ignored otherwise. */
function hintsFrom(data: Record<string, unknown> | undefined): DataHints {
  const d = isRecord(data) ? data : {};
  const request = isRecord(d['request']) ? d['request'] : null;
  const seconds = d['durationSeconds'];
  return {
    jobId: textOrNull(d['jobId']),
    sourceAssetId: textOrNull(d['upscaledFrom']),
    prompt: textOrNull(d['prompt']) ?? (request ? textOrNull(request['prompt']) : null),
    params: request ? JSON.stringify(request) : null,
    preset: textOrNull(d['preset']) ?? (request ? textOrNull(request['preset']) : null),
    width: positiveIntOrNull(d['width']),
    height: positiveIntOrNull(d['height']),
    durationMs: typeof seconds === 'number' && seconds > 0 ? Math.round(seconds * 1000) : null,
    format: formatOrNull(d['format']),
  };
}

export function assetFieldsFromImage(record: ImageRecord): AssetServerFields {
  const url = textOrNull(record.url);
  return {
    kind: 'image',
    id: record.id,
    origin: UPLOADED_IMAGE_TYPES.has(record.type) ? 'uploaded' : 'generated',
    modelId: textOrNull(record.modelID),
    type: textOrNull(record.type),
    url,
    upscaledImageId: textOrNull(record.upscaledImageID),
    upscaledImageUrl: textOrNull(record.upscaledImageURL),
    folderId: textOrNull(record.folderID),
    publicMediaId: textOrNull(record.publicMediaID),
    liked: record.liked === true,
    data: jsonOrNull(record.data),
    createdAt: parseTime(record.createdAt),
    updatedAt: parseTime(record.updatedAt),
    serverHash: recordHash(record),
    hls: false,
    ...hintsFrom(record.data),
  };
}

export function assetFieldsFromVideo(record: VideoRecord): AssetServerFields {
  const url = textOrNull(record.url);
  const hints = hintsFrom(record.data);
  return {
    kind: 'video',
    id: record.id,
    origin: 'generated',
    modelId: textOrNull(record.modelID),
    type: textOrNull(record.type),
    url,
    upscaledImageId: null,
    upscaledImageUrl: null,
    folderId: textOrNull(record.folderID),
    publicMediaId: textOrNull(record.publicMediaID),
    liked: record.liked === true,
    data: jsonOrNull(record.data),
    createdAt: parseTime(record.createdAt),
    updatedAt: parseTime(record.updatedAt),
    serverHash: recordHash(record),
    hls: isHlsUrl(url),
    ...hints,
    jobId: textOrNull(record.jobId) ?? hints.jobId,
  };
}

export function modelFields(model: Model): ModelServerFields {
  return {
    id: model.id,
    modelType: typeof model.modelType === 'string' ? model.modelType : '',
    status: typeof model.status === 'string' ? model.status : '',
    createdAt: parseTime(model.createdAt),
    updatedAt: parseTime(model.updatedAt),
    serverHash: recordHash(model),
  };
}

export const presetFields = (preset: Preset): PresetFields => ({
  tag: preset.tag,
  name: typeof preset.name === 'string' && preset.name !== '' ? preset.name : preset.tag,
  category: typeof preset.category === 'string' ? preset.category : '',
});
