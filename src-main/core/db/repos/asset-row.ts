// The shape of an assets row as repositories return it (every column but the raw server data).
import { sql } from '../sql.ts';
import type { AssetKind, AssetOrigin } from '../record-fields.ts';

export type FileState = 'remote' | 'queued' | 'downloading' | 'downloaded' | 'failed';
/** Where width, height, duration and format came from, worst to best (schema 14). */
export type FactsFrom = 'request' | 'service' | 'file';
export const FILE_STATES: readonly FileState[] = ['remote', 'queued', 'downloading', 'downloaded', 'failed'];

export interface AssetRow {
  seq: number;
  kind: AssetKind;
  id: string;
  origin: AssetOrigin;
  model_id: string | null;
  type: string | null;
  url: string | null;
  upscaled_image_id: string | null;
  upscaled_image_url: string | null;
  folder_id: string | null;
  public_media_id: string | null;
  liked: 0 | 1;
  /** Local: the user's star (never sent to the service, never touched by sync). */
  favorite: 0 | 1;
  /** Local: 0–5 stars, 0 = not rated (schema 15). */
  rating: number;
  /** Local: the pick or reject flag (schema 15). */
  flag: 'pick' | 'reject' | null;
  created_at: number;
  updated_at: number | null;
  remote_state: 'present' | 'gone';
  local_created_at: number;
  job_id: string | null;
  source_asset_id: string | null;
  frames: string | null;
  prompt: string | null;
  params: string | null;
  preset: string | null;
  file_state: FileState;
  local_path: string | null;
  bytes: number | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  /** The file's format ('png', 'jpeg', 'mp4', 'hls', …), when known. */
  format: string | null;
  facts_from: FactsFrom | null;
  sha256: string | null;
  thumb_path: string | null;
  hls: 0 | 1;
  /** For uploads: the file name it was uploaded from (this app's upload record, else the service's data). */
  upload_name: string | null;
}

/** The fixed column list behind AssetRow, qualified by the alias `a`. */
export const ASSET_ROW_COLUMNS = sql`a.seq, a.kind, a.id, a.origin, a.model_id, a.type, a.url, a.upscaled_image_id,
  a.upscaled_image_url, a.folder_id, a.public_media_id, a.liked, a.created_at, a.updated_at, a.remote_state,
  a.local_created_at, a.job_id, a.source_asset_id, a.frames, a.prompt, a.params, a.preset, a.file_state,
  a.local_path, a.bytes, a.width, a.height, a.duration_ms, a.format, a.facts_from, a.sha256, a.thumb_path, a.hls,
  a.favorite, a.rating, a.flag,
  CASE WHEN a.origin = 'uploaded' THEN coalesce(
    (SELECT u.file_name FROM uploads u WHERE u.image_id = a.id ORDER BY u.id DESC LIMIT 1),
    json_extract(a.data, '$.fileName'), json_extract(a.data, '$.name')) END AS upload_name`;
