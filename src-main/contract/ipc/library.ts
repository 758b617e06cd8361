// Channels of the offline library: the download queue (enqueue, pause, resume, retry, cancel),
// local copies (remove, export), deleting on the service, and moving the library folder.
// Listing and searching assets are the assets:* channels.
import * as v from 'valibot';
import type { ErrorInfo } from '../errors.ts';
import { invoke, type } from './channel.ts';

export type AssetKindInfo = 'image' | 'video';

/** Assets are unique by kind and service id (an image and a video may share an id). */
export interface AssetRefInfo {
  kind: AssetKindInfo;
  id: string;
}

/**
 * How an asset is fetched. Images: the file. Videos: 'mp4' runs the service's two-step download
 * (create-download, then poll until ready) for one offline MP4; 'hls' copies a streaming
 * playlist (one variant, its segments, init sections and keys) so it plays without network.
 */
export type DownloadModeInfo = 'file' | 'mp4' | 'hls';

export type DownloadStateInfo = 'queued' | 'preparing' | 'downloading' | 'paused' | 'succeeded' | 'failed';

export interface DownloadInfo {
  asset: AssetRefInfo;
  mode: DownloadModeInfo;
  state: DownloadStateInfo;
  /** 0..1 when known: bytes for files, files for HLS copies, the service's percent while preparing. */
  progress: number | null;
  /** The service's percentComplete while a video download is prepared. */
  preparePercent: number | null;
  bytesDone: number;
  bytesTotal: number | null;
  /** Recent transfer speed; null when idle. */
  bytesPerSecond: number | null;
  /** Why it failed or waits (a retry is scheduled at nextAttemptAt). */
  error: ErrorInfo | null;
  attempts: number;
  nextAttemptAt: string | null;
  updatedAt: string;
}

export type QueuePauseReasonInfo = 'user' | 'disk_full' | 'moving';

export interface DownloadQueueInfo {
  state: 'running' | 'paused' | 'stopped';
  pauseReason: QueuePauseReasonInfo | null;
  /** What to tell the user, e.g. "Paused: disk full — free space and press Resume." */
  message: string | null;
  concurrency: number;
  active: number;
  waiting: number;
  failed: number;
}

export interface DownloadsInfo {
  queue: DownloadQueueInfo;
  /** Unfinished downloads and those finished in the last day, newest first. */
  items: DownloadInfo[];
}

/** Pushed when downloads change: progress at most about four times a second per item. */
export interface DownloadsChangedInfo {
  queue: DownloadQueueInfo;
  changed: DownloadInfo[];
  /** Downloads that left the list (cancelled). */
  removed: AssetRefInfo[];
}

export interface LibraryMoveInfo {
  state: 'copying' | 'verifying' | 'switching' | 'cleaning' | 'done' | 'failed' | 'aborted';
  from: string;
  to: string;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  error: ErrorInfo | null;
}

export interface LibraryExportInfo {
  exported: number;
  skipped: { asset: AssetRefInfo; reason: string }[];
  to: string;
}

export interface RemoveLocalInfo {
  removed: AssetRefInfo[];
}

export interface DeleteRemoteInfo {
  deleted: AssetRefInfo[];
  refused: { asset: AssetRefInfo; reason: string }[];
}

/**
 * The most assets one call takes (download, remove, delete, export, add to a collection, a filter
 * check); the Library's select all stops there too, so it never gathers a million items at once.
 */
export const ASSETS_PER_CALL = 5000;

const assetRef = v.strictObject({
  kind: v.picklist(['image', 'video'], 'The asset kind must be image or video.'),
  id: v.pipe(
    v.string('The asset id must be text.'),
    v.nonEmpty('The asset id is empty.'),
    v.maxLength(256, 'The asset id is too long.'),
  ),
});
export const assetRefs = v.pipe(
  v.array(assetRef, 'Give a list of assets.'),
  v.minLength(1, 'Choose at least one asset.'),
  v.maxLength(ASSETS_PER_CALL, `Too many assets at once (at most ${ASSETS_PER_CALL}).`),
);
const optionalRefs = v.optional(v.strictObject({ assets: v.optional(assetRefs) }));
const folder = v.pipe(
  v.string('The folder must be text.'),
  v.trim(),
  v.nonEmpty('Choose a folder.'),
  v.maxLength(1024, 'The folder path is too long.'),
  v.check((value) => !value.includes('\0'), 'The folder path contains an invalid character.'),
  v.regex(/^(\/|[A-Za-z]:[\\/]|\\\\[^\\])/, 'The folder must be a full path.'),
);

export const libraryInvoke = {
  /** Queue downloads; videos default to 'mp4' (the service's prepared download). */
  'library:download': invoke(
    v.strictObject({
      assets: assetRefs,
      videoMode: v.optional(v.picklist(['mp4', 'hls'], 'videoMode must be mp4 or hls.')),
    }),
    type<DownloadInfo[]>(),
  ),
  'library:downloads': invoke(v.undefined(), type<DownloadsInfo>()),
  /** Without assets: the whole queue. */
  'library:pause': invoke(optionalRefs, type<DownloadsInfo>()),
  /** Without assets: the whole queue, including after "disk full". */
  'library:resume': invoke(optionalRefs, type<DownloadsInfo>()),
  /** Failed downloads start again (a video asks the service to prepare it again). */
  'library:retry': invoke(v.strictObject({ assets: assetRefs }), type<DownloadsInfo>()),
  /** Stops and forgets downloads; partial files are deleted. */
  'library:cancel': invoke(v.strictObject({ assets: assetRefs }), type<DownloadsInfo>()),
  /** Deletes the local copy only; the asset stays on the service. */
  'library:remove-local': invoke(v.strictObject({ assets: assetRefs }), type<RemoveLocalInfo>()),
  /**
   * Deletes on the service (DELETE /images/{id}). The service offers no way to delete a video,
   * so videos are refused with an explanation. Local copies are kept unless removed separately.
   */
  'library:delete-remote': invoke(v.strictObject({ assets: assetRefs }), type<DeleteRemoteInfo>()),
  /**
   * Moves the library folder: copy, verify, switch, remove. Progress as 'library:move-progress'.
   * In the app `to` must be a folder shell:pick-folder just returned (the main process's dialog);
   * elsewhere an empty folder.
   */
  'library:move': invoke(v.strictObject({ to: folder }), type<LibraryMoveInfo>()),
  /**
   * Points the app at another library folder without moving anything (a library copied there by
   * hand). Accepted only when empty or already an Atelier library (its `.atelier-library` marker),
   * and in the app only from the folder dialog. Answers the library folder now in use.
   */
  'library:use-folder': invoke(v.strictObject({ to: folder }), type<{ libraryDir: string }>()),
  'library:move-abort': invoke(v.undefined(), type<null>()),
  /** Copies downloaded files to a folder with a JSON sidecar each (prompt, params, model, job). */
  'library:export': invoke(v.strictObject({ assets: assetRefs, to: folder }), type<LibraryExportInfo>()),
};

export const libraryEvents = {
  'downloads:changed': type<DownloadsChangedInfo>(),
  'library:move-progress': type<LibraryMoveInfo>(),
};
