// The one place download rows become renderer DTOs, and where files of an asset live.
import type { ErrorCode, ErrorInfo } from '../../../contract/errors.ts';
import { ERROR_CODES } from '../../../contract/errors.ts';
import type { AssetRefInfo, DownloadInfo, DownloadModeInfo } from '../../../contract/ipc/library.ts';
import { HLS_ENTRY } from './hls-copy.ts';
import type { DownloadRow } from '../../db/repos/downloads-repo.ts';
import { extensionOfUrl } from '../media/media-types.ts';
import { safeNameForId } from '../folder/paths.ts';

export { DISK_FULL_MESSAGE } from '../../host/disk-full.ts';

/** Where an asset's files go, relative to the library root. Names come from sanitised ids only. */
export interface AssetFiles {
  dir: string;
  name: string;
  /** The `.part` file of a single-file download (same folder as the result: the rename is atomic). */
  part: string;
  /** The staging folder of an HLS copy. */
  hlsStaging: string;
  hlsDir: string;
}

/**
 * `area` is the account's folder inside the library root: '' for a service account, 'Demo' for
 * the demo, so demo files never mix with real ones while one root serves them all.
 */
export function filesOf(asset: AssetRefInfo, area = ''): AssetFiles {
  const dir = `${area ? `${area}/` : ''}${asset.kind === 'image' ? 'images' : 'videos'}`;
  const name = safeNameForId(asset.id);
  return {
    dir,
    name,
    part: `${dir}/${name}.part`,
    hlsStaging: `${dir}/${name}.hls.part`,
    hlsDir: `${dir}/${name}.hls`,
  };
}

/** A first guess at the destination; the Content-Type of the answer may change the extension. */
export function initialDest(asset: AssetRefInfo, mode: DownloadModeInfo, url: string | null, area = ''): string {
  const files = filesOf(asset, area);
  if (mode === 'hls') return `${files.hlsDir}/${HLS_ENTRY}`;
  if (mode === 'mp4') return `${files.dir}/${files.name}.mp4`;
  const ext = (url ? extensionOfUrl(url) : undefined) ?? (asset.kind === 'image' ? 'jpg' : 'mp4');
  return `${files.dir}/${files.name}.${ext}`;
}

export const withExtension = (dest: string, ext: string): string => dest.replace(/\.[A-Za-z0-9]+$/, '') + `.${ext}`;

const asErrorCode = (code: string | null): ErrorCode =>
  code !== null && (ERROR_CODES as readonly string[]).includes(code) ? (code as ErrorCode) : 'internal';

export function errorOf(row: Pick<DownloadRow, 'error' | 'error_code'>): ErrorInfo | null {
  return row.error ? { code: asErrorCode(row.error_code), message: row.error } : null;
}

/** What only the running process knows: transfer speed, and an HLS copy's share of files done. */
export interface LiveProgress {
  bytesPerSecond: number | null;
  fraction: number | null;
}

function progressOf(row: DownloadRow, live: LiveProgress | undefined): number | null {
  if (row.state === 'succeeded') return 1;
  if (live?.fraction !== null && live?.fraction !== undefined) return live.fraction;
  if (row.state === 'preparing') return row.prepare_percent === null ? null : Math.min(1, row.prepare_percent / 100);
  if (row.bytes_total && row.bytes_total > 0) return Math.min(1, row.bytes_done / row.bytes_total);
  return null;
}

export function toDownloadInfo(row: DownloadRow, live?: LiveProgress): DownloadInfo {
  return {
    asset: { kind: row.asset_kind, id: row.asset_id },
    mode: row.mode,
    state: row.state,
    progress: progressOf(row, live),
    preparePercent: row.prepare_percent,
    bytesDone: row.bytes_done,
    bytesTotal: row.bytes_total,
    bytesPerSecond: row.state === 'downloading' ? (live?.bytesPerSecond ?? null) : null,
    error: errorOf(row),
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
