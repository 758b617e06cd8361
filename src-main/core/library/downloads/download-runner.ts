// Runs one step of one download: prepare a video on the service (one poll per step), fetch a file
// into its `.part` (fsynced), or copy an HLS stream; then the commit: rename into place, and only
// then (download-commits.ts, batched with files finishing close together) the folder's fsync and
// the download row and the asset's local state in one transaction. Returns what should happen next.
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { AppError, type ErrorCode, type ErrorInfo } from '../../../contract/errors.ts';
// The upload rules file alone: the full rules index is large and this runs in every downloader.
import { detectImageFormat } from '../../../contract/rules/upload.ts';
import { POLL_INTERVALS_MS } from '../../../contract/service.ts';
import { classifyFailure, errorInfoOf } from '../../api/backoff.ts';
import { isDiskFull } from '../../host/disk-full.ts';
import type { DownloadRow } from '../../db/repos/downloads-repo.ts';
import type { FinishedFile } from './download-commits.ts';
import { sizeInFolder, type DownloadFolders } from './download-folders.ts';
import { filesOf, withExtension } from './download-info.ts';
import { copyHlsOffline, type HlsProgress } from './hls-copy.ts';
import type { MediaFetch } from '../media/media-http.ts';
import { extensionOfContentType, extensionOfFormat } from '../media/media-types.ts';
import { resolveInLibrary, safeLibraryPath } from '../folder/paths.ts';
import type { LibraryServiceClient } from '../service-port.ts';
import { DownloadError } from './download-error.ts';
import type { MediaLimits } from './media-limits.ts';
import { HEAD_BYTES, transferToPart, type PartFs } from './transfer.ts';

export type StepOutcome =
  | { kind: 'succeeded' }
  /** Not done yet, nothing wrong (a video still being prepared): run again at `at`. */
  | { kind: 'later'; at: number }
  /**
   * Something failed that may pass (the one classifier said so, or a dead link): `info` says what,
   * for the row and the backoff (a Retry-After is a floor); `progressed` = bytes arrived during this step.
   */
  | { kind: 'retry'; info: ErrorInfo; progressed: boolean; immediately?: boolean }
  | { kind: 'failed'; code: ErrorCode; message: string }
  | { kind: 'disk_full' }
  | { kind: 'aborted' };

export interface RunnerContext {
  root: string;
  /** The account's folder inside the root ('' or 'Demo'). */
  area: string;
  client: LibraryServiceClient;
  signal: AbortSignal;
  now(): number;
  prepareIntervalMs?: number;
  fetch?: MediaFetch;
  fs?: PartFs;
  limits?: Partial<MediaLimits>;
  /** Bytes so far (and total when known), or an HLS copy's files. */
  onProgress(bytesDone: number, bytesTotal: number | null, hls?: HlsProgress): void;
  /** Persist-and-announce after a state change inside a step (e.g. preparing → downloading). */
  onChange(): void;
  /** Every byte of the body is in: what is left (fsync, rename, commit) needs no network slot. */
  onReceived?(): void;
  /** Folders checked once (download-folders.ts). */
  folders: DownloadFolders;
  /** The file is in place: resolves once the database says so (download-commits.ts). */
  commit(file: FinishedFile): Promise<void>;
  /** False when the library's disk is below the free-space floor (download-space.ts). */
  hasRoom?(): Promise<boolean>;
}

const NO_LINK_YET: StepOutcome = {
  kind: 'retry',
  info: { code: 'not_found', message: 'No link yet.' },
  progressed: false,
  immediately: true,
};

const PREPARE_FAILED = 'The service could not prepare this video for download. Press Retry to ask it again.';

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(dir, entry.name))).size;
  }
  return total;
}

/** Images: the bytes decide the extension when the server's Content-Type is vague or wrong. */
async function sniffedImageExtension(path: string, head: Buffer | null): Promise<string | undefined> {
  if (head === null) {
    // Resumed: the start of the file came in an earlier attempt.
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }
  const format = detectImageFormat(head);
  return format ? extensionOfFormat(format) : undefined;
}

/**
 * A failed request, service or media, judged by the one classifier of background failures
 * (api/backoff.ts classifyFailure): transient ones (5xx, network, cut or unreadable answers) and
 * rate limits are tried again later; the rest fail with the reason.
 */
function judged(info: ErrorInfo, progressed: boolean, what: string): StepOutcome {
  switch (classifyFailure(info)) {
    case 'transient':
    case 'rate_limited':
      return { kind: 'retry', info, progressed };
    case 'not_found':
      return { kind: 'failed', code: info.code, message: `${what} is no longer on the service.` };
    case 'auth':
      return { kind: 'failed', code: info.code, message: 'The service refused the API key; check it in Settings.' };
    case 'permanent':
      return { kind: 'failed', code: info.code, message: info.message };
  }
}

function fromServiceError(error: unknown, what: string): StepOutcome {
  return judged(errorInfoOf(error), false, what);
}

function fromDownloadError(error: unknown, progressed: boolean): StepOutcome {
  // The part file or the database itself (saving progress, the commit) ran out of space.
  if (isDiskFull(error)) return { kind: 'disk_full' };
  if (error instanceof DownloadError) {
    switch (error.kind) {
      case 'aborted':
        return { kind: 'aborted' };
      case 'disk_full':
        return { kind: 'disk_full' };
      case 'failure':
        return judged(error.info, progressed, 'This file');
      case 'stalled':
        // A drip moves a few bytes: that is no progress, or it would retry (and hold a slot) forever.
        return { kind: 'retry', info: error.info, progressed: false };
      case 'link':
        return { kind: 'retry', info: error.info, progressed, immediately: true };
      case 'fatal':
        return { kind: 'failed', code: 'unsupported', message: error.message };
    }
  }
  if (error instanceof AppError) return judged(error.info, progressed, 'This file');
  return { kind: 'failed', code: 'internal', message: 'The download failed unexpectedly; details are in the log.' };
}

/** Video 'mp4' mode without a link: ask for preparation, or poll it once. */
async function prepareVideo(ctx: RunnerContext, row: DownloadRow): Promise<StepOutcome | 'ready'> {
  const interval = ctx.prepareIntervalMs ?? POLL_INTERVALS_MS.videoDownload;
  try {
    if (row.state !== 'preparing') {
      await ctx.client.createVideoDownload(row.asset_id);
      row.state = 'preparing';
      row.prepare_percent = 0;
      ctx.onChange();
      return { kind: 'later', at: ctx.now() + interval };
    }
    let status;
    try {
      status = await ctx.client.getVideoDownload(row.asset_id);
    } catch (error) {
      // The service forgot the request (or never got it): ask again.
      if (error instanceof AppError && error.info.code === 'not_found') {
        await ctx.client.createVideoDownload(row.asset_id);
        return { kind: 'later', at: ctx.now() + interval };
      }
      throw error;
    }
    const state = String(status.status).toLowerCase();
    if (state === 'ready' && typeof status.url === 'string' && status.url !== '') {
      row.url = status.url;
      row.state = 'downloading';
      row.prepare_percent = 100;
      ctx.onChange();
      return 'ready';
    }
    if (state === 'error') return { kind: 'failed', code: 'server', message: PREPARE_FAILED };
    const percent = Number(status.percentComplete);
    row.prepare_percent = Number.isFinite(percent) ? Math.max(0, Math.min(100, percent)) : row.prepare_percent;
    ctx.onChange();
    return { kind: 'later', at: ctx.now() + interval };
  } catch (error) {
    return fromServiceError(error, 'This video');
  }
}

/** A file or HLS download without a link (or whose link died): ask the service for a fresh one. */
async function refreshLink(ctx: RunnerContext, row: DownloadRow): Promise<StepOutcome | null> {
  try {
    const record =
      row.asset_kind === 'image' ? await ctx.client.getImage(row.asset_id) : await ctx.client.getVideo(row.asset_id);
    if (!record.url) return { kind: 'failed', code: 'not_found', message: 'The service lists no file for this asset.' };
    row.url = record.url;
    return null;
  } catch (error) {
    return fromServiceError(error, row.asset_kind === 'image' ? 'This image' : 'This video');
  }
}

async function runFile(ctx: RunnerContext, row: DownloadRow): Promise<StepOutcome> {
  const files = filesOf({ kind: row.asset_kind, id: row.asset_id }, ctx.area);
  const url = row.url;
  if (!url) return NO_LINK_YET;
  const dir = await ctx.folders.ensure(ctx.root, files.dir);
  const part = join(dir, basename(files.part));
  try {
    return await runFileIn(ctx, row, url, part);
  } catch (error) {
    ctx.folders.forget(dir);
    throw error;
  }
}

async function runFileIn(ctx: RunnerContext, row: DownloadRow, url: string, part: string): Promise<StepOutcome> {
  // A crash between the rename and the commit leaves the finished file and no part: commit it.
  const partSize = await sizeInFolder(dirname(part), basename(part));
  if (partSize < 0 && row.bytes_total !== null) {
    const destAbs = await safeLibraryPath(ctx.root, row.dest);
    const done = await stat(destAbs).catch(() => null);
    if (done?.isFile() && done.size === row.bytes_total) {
      const sha256 = await sha256OfFile(destAbs);
      await ctx.commit({ row, bytes: done.size, sha256, dir: dirname(destAbs) });
      return { kind: 'succeeded' };
    }
  }

  let progressed = false;
  let result;
  try {
    result = await transferToPart({
      url,
      partPath: part,
      partSize: Math.max(0, partSize),
      state: {
        validator: row.etag || row.last_modified ? { etag: row.etag, lastModified: row.last_modified } : null,
        totalBytes: row.bytes_total,
        contentType: row.content_type,
      },
      signal: ctx.signal,
      ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
      ...(ctx.fs ? { fs: ctx.fs } : {}),
      ...(ctx.hasRoom ? { hasRoom: ctx.hasRoom } : {}),
      ...(ctx.limits ? { limits: ctx.limits } : {}),
      onStart: (start) => {
        // Persisted before the first body byte lands, so a killed process resumes with If-Range.
        row.etag = start.validator?.etag ?? null;
        row.last_modified = start.validator?.lastModified ?? null;
        row.bytes_total = start.totalBytes;
        row.content_type = start.contentType;
        row.bytes_done = start.offset;
        row.state = 'downloading';
        const ext = extensionOfContentType(start.contentType ?? undefined);
        if (ext && row.mode === 'file') row.dest = withExtension(row.dest, ext);
        ctx.onChange();
      },
      onProgress: (done, total) => {
        // Progress only when the next attempt can resume it: a part without a validator starts
        // over, so a body that never ends (no length, no validator) runs out of attempts.
        if (done > row.bytes_done && (row.etag !== null || row.last_modified !== null)) progressed = true;
        row.bytes_done = done;
        ctx.onProgress(done, total);
      },
      ...(ctx.onReceived ? { onReceived: ctx.onReceived } : {}),
    });
  } catch (error) {
    ctx.folders.forget(dirname(part));
    return fromDownloadError(error, progressed);
  }
  if (row.asset_kind === 'image') {
    const sniffed = await sniffedImageExtension(part, result.head);
    if (sniffed) row.dest = withExtension(row.dest, sniffed);
  }
  // Same folder as the part (filesOf), checked: rename replaces a link there, never follows it.
  const dest = resolveInLibrary(ctx.root, row.dest);
  if (dirname(dest) !== dirname(part)) throw new Error(`A download's destination left its folder: ${row.dest}`);
  await rename(part, dest);
  await ctx.commit({ row, bytes: result.bytes, sha256: result.sha256, dir: dirname(dest) });
  return { kind: 'succeeded' };
}

async function runHls(ctx: RunnerContext, row: DownloadRow): Promise<StepOutcome> {
  const files = filesOf({ kind: row.asset_kind, id: row.asset_id }, ctx.area);
  const target = await safeLibraryPath(ctx.root, files.hlsDir);
  const staging = await safeLibraryPath(ctx.root, files.hlsStaging);
  const entry = await safeLibraryPath(ctx.root, row.dest);
  // Renamed into place but not committed (a crash in between): commit what is there.
  if (
    await stat(entry).then(
      (s) => s.isFile(),
      () => false,
    )
  ) {
    await ctx.commit({ row, bytes: await folderBytes(target), sha256: null, dir: null });
    return { kind: 'succeeded' };
  }
  if (!row.url) return NO_LINK_YET;
  row.state = 'downloading';
  ctx.onChange();
  let progressed = false;
  try {
    const result = await copyHlsOffline({
      url: row.url,
      targetDir: target,
      stagingDir: staging,
      signal: ctx.signal,
      ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
      onProgress: (p) => {
        if (p.bytes > row.bytes_done) progressed = true;
        row.bytes_done = p.bytes;
        ctx.onProgress(p.bytes, null, p);
      },
    });
    await ctx.commit({ row, bytes: result.bytes, sha256: null, dir: null });
    return { kind: 'succeeded' };
  } catch (error) {
    return fromDownloadError(error, progressed);
  }
}

/** One step of a download. Never throws for expected trouble: the outcome says what happened. */
export async function runDownloadStep(ctx: RunnerContext, row: DownloadRow): Promise<StepOutcome> {
  try {
    if (row.mode === 'mp4' && !row.url) {
      const prepared = await prepareVideo(ctx, row);
      if (prepared !== 'ready') return prepared;
    }
    if (!row.url) {
      const refreshed = await refreshLink(ctx, row);
      if (refreshed) return refreshed;
    }
    return row.mode === 'hls' ? await runHls(ctx, row) : await runFile(ctx, row);
  } catch (error) {
    if (ctx.signal.aborted) return { kind: 'aborted' };
    if (isDiskFull(error)) return { kind: 'disk_full' };
    if (error instanceof DownloadError || error instanceof AppError) return fromDownloadError(error, false);
    throw error;
  }
}

/** Removes what an unfinished download left behind (its `.part` or HLS staging folder). */
export async function removePartials(
  root: string,
  asset: { kind: 'image' | 'video'; id: string },
  area = '',
): Promise<void> {
  const files = filesOf(asset, area);
  for (const relative of [files.part, files.hlsStaging]) {
    const path = await safeLibraryPath(root, relative).catch(() => null);
    if (path) await rm(path, { recursive: true, force: true });
  }
}
