// The offline library of one open account: its download queue, thumbnails, posters of videos
// not downloaded yet, local copies, deletions on the service, export and media serving. Started
// when the account opens and stopped (transfers aborted, resumable) before its database closes.
import { rm } from 'node:fs/promises';
import type BetterSqlite3 from 'better-sqlite3';
import type {
  AssetRefInfo,
  DeleteRemoteInfo,
  DownloadInfo,
  DownloadsChangedInfo,
  LibraryExportInfo,
  RemoveLocalInfo,
} from '../../contract/ipc/library.ts';
import type { AssetsChangedInfo } from '../../contract/ipc/assets.ts';
import { AssetsRepo } from '../db/repos/assets-repo.ts';
import { LocalCopiesRepo, type TimeCursor } from '../db/repos/local-copies-repo.ts';
import type { AssetRow } from '../db/repos/asset-row.ts';
import type { ProgressAggregate } from '../host/progress.ts';
import { DownloadQueue, type DownloadQueueDeps } from './downloads/download-queue.ts';
import type { DownloadRow } from '../db/repos/downloads-repo.ts';
import { embedCommittedSettings, embedForExport } from './media/embed-settings.ts';
import { marksOfAsset } from './folder/asset-marks.ts';
import { createFileFacts } from './media/file-facts.ts';
import { exportAssets } from './folder/library-export.ts';
import { reconcileLocalFiles } from './folder/local-files.ts';
import { TrashRepo } from '../db/repos/trash-repo.ts';
import type { TrashSummaryInfo } from '../../contract/ipc/trash.ts';
import { createLibraryTrash, type LibraryTrash } from './library-trash.ts';
import { deleteRemote } from './remote-delete.ts';

export { VIDEO_DELETE_REFUSED } from './remote-delete.ts';
import { pacer, type Foreground } from './paced-work.ts';
import { scopedMediaFetch, type MediaFetch } from './media/media-http.ts';
import { serveLocalMedia, type MediaReply, type MediaRequest } from './media/media-serving.ts';
import { safeLibraryPath, safeNameForId } from './folder/paths.ts';
import { wantsPosterLink } from '../host/poster-links.ts';
import {
  createRemotePosterQueue,
  type PosterOutcome,
  type RemotePosterQueue,
  type RemotePosterQueueOptions,
} from './media/remote-posters.ts';
import type { LibraryServiceClient } from './service-port.ts';
import {
  ensureRemotePoster,
  ensureThumbnail,
  generatedPosterReply,
  isRemotePosterPath,
  type RemotePosterMiss,
} from './media/thumbnails.ts';

export interface LibraryDeps {
  db: BetterSqlite3.Database;
  client: LibraryServiceClient;
  /** The library root (the folder setting; it changes after a move). */
  root(): string;
  /** This account's folder inside the root: '' for a service account, 'Demo' for the demo. */
  area?: string;
  concurrency(): number;
  emitDownloads(change: DownloadsChangedInfo): void;
  emitAssets(change: AssetsChangedInfo): void;
  /** The trash's new totals after a change (trash:changed). */
  emitTrash?(summary: TrashSummaryInfo): void;
  /** Wall-clock epoch ms (the trash's dates and purge); tests inject a clock. */
  now?(): number;
  /** The app's one taskbar/dock bar, shared with uploads. */
  progress?: ProgressAggregate;
  logError(message: string, error: unknown): void;
  /** Expected trouble worth a line in the log, not an alarm (a poster link that gave no frame). */
  logInfo?(message: string): void;
  /** The account's media fetch (media-http.ts `scopedMediaFetch`), for posters of videos not downloaded. */
  mediaFetch?: MediaFetch;
  /** Whom the background work over the whole library gives way to (paced-work.ts). */
  foreground?: Foreground;
  /** Tests: shorter intervals, injected fetch or file system. */
  queue?: Partial<DownloadQueueDeps>;
  /** Tests: the poster queue's limits. */
  posters?: Partial<Omit<RemotePosterQueueOptions, 'make'>>;
}

export interface Library {
  readonly queue: DownloadQueue;
  readonly assets: AssetsRepo;
  /** Posters of videos not downloaded yet, made as their tiles ask for them. */
  readonly posters: RemotePosterQueue;
  /** Removed local copies, kept 30 days (library-trash.ts). */
  readonly trash: LibraryTrash;
  root(): string;
  start(): void;
  stop(): Promise<void>;
  download(refs: readonly AssetRefInfo[], videoMode?: 'mp4' | 'hls'): DownloadInfo[];
  /** Finished jobs' outputs, queued as downloads (core/account-services.ts decides on Auto-download). */
  enqueueOutputs(refs: readonly AssetRefInfo[]): void;
  /** Moves the local copies into the trash; a copy that cannot move stays, with the reason. */
  removeLocal(refs: readonly AssetRefInfo[]): Promise<RemoveLocalInfo>;
  deleteRemote(refs: readonly AssetRefInfo[]): Promise<DeleteRemoteInfo>;
  exportTo(refs: readonly AssetRefInfo[], to: string): Promise<LibraryExportInfo>;
  serve(request: MediaRequest): Promise<MediaReply>;
  /**
   * Answers a video's poster link (poster-links.ts): its recorded poster, else the generated one
   * while a frame is taken from its link in the background (an assets:changed tells when).
   */
  servePoster(videoId: string, request: MediaRequest): Promise<MediaReply>;
  /** Makes missing thumbnails of downloaded assets (background, one at a time). */
  backfillThumbnails(): Promise<void>;
}

const kindsOf = (refs: readonly AssetRefInfo[]) => [...new Set(refs.map((r) => r.kind))];

/** Posters made within this long of each other are announced in one assets:changed. */
const POSTER_ANNOUNCE_MS = 250;
/** Thumbnails made for downloaded assets after a start's check, newest first, at most. */
const BACKFILL_LIMIT = 2000;
/** Downloaded assets read per page while looking for those without a thumbnail. */
const BACKFILL_PAGE = 500;

export function createLibrary(deps: LibraryDeps): Library {
  const assets = new AssetsRepo(deps.db);
  const copies = new LocalCopiesRepo(deps.db, assets);
  const progressBar = deps.progress ?? null;
  const stopController = new AbortController();
  let thumbChain: Promise<void> = Promise.resolve();
  /**
   * Settings being written into just-downloaded files, by asset seq: removing a local copy waits for
   * its write, whose atomic rename would otherwise put the file back after the removal.
   */
  const embedding = new Map<number, Promise<boolean>>();
  /** The start-up check of local files, awaited by stop() so nothing touches a closed database. */
  let checking: Promise<void> = Promise.resolve();

  const announce = (reason: AssetsChangedInfo['reason'], refs: readonly AssetRefInfo[]) => {
    if (refs.length === 0) return;
    deps.emitAssets({ reason, kinds: kindsOf(refs), ...(refs.length <= 100 ? { assets: [...refs] } : {}) });
  };
  const facts = createFileFacts({ ...deps, assets, signal: stopController.signal, announce });

  /** A recorded thumbnail taken from the link, replaced by the downloaded file's own: its file goes. */
  const dropLinkPoster = async (root: string, relativePath: string | null): Promise<void> => {
    if (!relativePath || !isRemotePosterPath(relativePath)) return;
    const file = await safeLibraryPath(root, relativePath).catch(() => null);
    if (file) await rm(file, { force: true }).catch(() => undefined);
  };

  /** Thumbnails are made one at a time after the download, so they never compete with transfers. */
  const thumbnailFor = (asset: AssetRow): Promise<void> => {
    thumbChain = thumbChain.then(async () => {
      if (stopController.signal.aborted) return;
      const current = assets.getBySeq(asset.seq);
      // A poster taken from the link is replaced by the downloaded file's own.
      if (!current || (current.thumb_path && !isRemotePosterPath(current.thumb_path))) return;
      const root = deps.root();
      const source =
        current.file_state === 'downloaded' && current.local_path
          ? await safeLibraryPath(root, current.local_path)
          : null;
      if (!source && (current.kind === 'image' || current.thumb_path)) return;
      try {
        const thumb = await ensureThumbnail({
          root,
          area: deps.area ?? '',
          safeName: safeNameForId(current.id),
          kind: current.kind,
          source,
        });
        if (stopController.signal.aborted) return;
        // A video without its file gets the shared poster, not recorded: its own comes later.
        if (source) {
          // Its state as it is now: the copy may have gone to the trash while the thumbnail was made.
          const fresh = assets.getBySeq(current.seq);
          const replaced = fresh?.thumb_path ?? null;
          if (fresh) assets.setLocalFile(fresh.seq, { fileState: fresh.file_state, thumbPath: thumb.path });
          if (replaced !== thumb.path) await dropLinkPoster(root, replaced);
        }
        announce('download', [{ kind: current.kind, id: current.id }]);
      } catch (error) {
        deps.logError(`Making the thumbnail of ${current.kind} ${current.id} failed`, error);
      }
    });
    // One failed link (a path refused, a full disk) must neither break the chain nor go unhandled.
    thumbChain = thumbChain.catch((error: unknown) => deps.logError('Making a thumbnail failed', error));
    return thumbChain;
  };

  const queue = new DownloadQueue({
    db: deps.db,
    assets,
    root: deps.root,
    area: deps.area ?? '',
    client: deps.client,
    concurrency: deps.concurrency,
    logError: deps.logError,
    emit: (change) => {
      deps.emitDownloads(change);
      for (const item of change.changed) {
        const key = `${item.asset.kind}:${item.asset.id}`;
        if (item.state === 'downloading') progressBar?.update(key, item.bytesDone, item.bytesTotal);
        else progressBar?.finish(key);
      }
      for (const ref of change.removed) progressBar?.finish(`${ref.kind}:${ref.id}`);
    },
    onSucceeded: (row: DownloadRow) => {
      const ref = { kind: row.asset_kind, id: row.asset_id };
      announce('download', [ref]);
      const asset = assets.getBySeq(row.asset_seq);
      // Settings into the file (PNG text chunks, JPEG XMP; replaced atomically, so the thumbnail may
      // read it meanwhile: the pixels are the same), and the thumbnail, both off the transfer path.
      if (asset) {
        const embedded = embedCommittedSettings(deps.root(), asset, assets).finally(() => {
          if (embedding.get(asset.seq) === embedded) embedding.delete(asset.seq);
        });
        embedding.set(asset.seq, embedded);
        void thumbnailFor(asset);
        void facts.read(asset);
      }
    },
    ...deps.queue,
  });

  const trash = createLibraryTrash({
    trash: new TrashRepo(deps.db, assets),
    copies,
    assets,
    root: deps.root,
    area: deps.area ?? '',
    now: deps.now ?? Date.now,
    cancelDownloads: (refs) => queue.cancel(refs),
    onRestored: (asset) => void thumbnailFor(asset),
    announce,
    ...(deps.emitTrash ? { emitTrash: deps.emitTrash } : {}),
    logError: deps.logError,
  });

  // Posters of videos not downloaded yet: lazily, as tiles ask (servePoster), a few at a time.
  const mediaFetch = deps.mediaFetch ?? deps.queue?.fetch ?? scopedMediaFetch(null);
  const missesLogged = new Set<RemotePosterMiss | 'error'>();
  const logMissOnce = (miss: RemotePosterMiss, detail: string): void => {
    if (missesLogged.has(miss)) return;
    missesLogged.add(miss);
    deps.logInfo?.(
      `A video link gave no poster (${miss}: ${detail}); the generated poster stays. Further ${miss} links are not logged.`,
    );
  };
  let madePosters: AssetRefInfo[] = [];
  let madeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Posters made close together are announced together (one assets:changed, not one per tile). */
  const announcePoster = (ref: AssetRefInfo): void => {
    madePosters.push(ref);
    madeTimer ??= setTimeout(() => {
      madeTimer = undefined;
      const refs = madePosters;
      madePosters = [];
      if (!stopController.signal.aborted) announce('download', refs);
    }, POSTER_ANNOUNCE_MS);
  };
  const makePoster = async (job: { id: string; url: string }, signal: AbortSignal): Promise<PosterOutcome> => {
    const row = assets.get('video', job.id);
    if (!row || row.thumb_path || !wantsPosterLink(row) || row.url !== job.url) return 'skipped';
    const root = deps.root();
    const made = await ensureRemotePoster({
      root,
      area: deps.area ?? '',
      safeName: safeNameForId(row.id),
      url: job.url,
      fetch: mediaFetch,
      signal,
    });
    if (made.missed) {
      if (!signal.aborted) logMissOnce(made.missed, made.detail);
      return made.missed;
    }
    // Checked again after the wait: a download that finished meanwhile brought its own poster.
    const fresh = assets.get('video', job.id);
    if (signal.aborted || !fresh || fresh.thumb_path || !wantsPosterLink(fresh)) {
      if (made.created) await dropLinkPoster(root, made.path);
      return 'skipped';
    }
    assets.setLocalFile(fresh.seq, { fileState: fresh.file_state, thumbPath: made.path });
    announcePoster({ kind: 'video', id: fresh.id });
    return 'made';
  };
  const posters = createRemotePosterQueue({
    ...deps.posters,
    make: makePoster,
    onError: (job, error) => {
      if (missesLogged.has('error')) return;
      missesLogged.add('error');
      deps.logError(`Making the poster of video ${job.id} failed`, error);
    },
  });

  /** How the background work over the whole library is paced: it stops with the library. */
  const paced = { signal: stopController.signal, ...(deps.foreground ? { foreground: deps.foreground } : {}) };

  const rowsOf = (refs: readonly AssetRefInfo[]) => refs.map((ref) => ({ ref, asset: assets.get(ref.kind, ref.id) }));

  return {
    queue,
    assets,
    posters,
    trash,
    root: deps.root,
    start() {
      queue.start();
      // The trash is settled first (a copy half moved into it), then files deleted behind our back
      // stop counting as offline copies.
      checking = trash
        .start()
        .catch((error: unknown) => deps.logError('Checking the trash failed', error))
        .then(() => reconcileLocalFiles(copies, assets, deps.root(), paced))
        .then((lost) => {
          if (stopController.signal.aborted) return;
          announce('download', lost);
          void facts.backfill(paced);
          // Thumbnails follow in the background: stop() waits for the thumbnail chain, not for this.
          this.backfillThumbnails().catch((error: unknown) => {
            if (!stopController.signal.aborted) deps.logError('Making the missing thumbnails failed', error);
          });
        })
        .catch((error: unknown) => {
          if (!stopController.signal.aborted) deps.logError('Checking the library files failed', error);
        });
    },
    async stop() {
      stopController.abort();
      clearTimeout(madeTimer);
      await Promise.all([queue.stop(), posters.stop(), checking, trash.stop()]);
      await Promise.all([thumbChain.catch(() => undefined), facts.idle()]);
    },
    download: (refs, videoMode) => queue.enqueue(refs, videoMode),
    enqueueOutputs(refs) {
      if (refs.length === 0) return;
      queue.enqueue(refs, 'mp4');
    },
    async removeLocal(refs) {
      const active = refs.filter((ref) => {
        const asset = assets.get(ref.kind, ref.id);
        return asset && asset.file_state !== 'downloaded' && asset.file_state !== 'remote';
      });
      if (active.length) await queue.cancel(active);
      const result = await trash.putAll(rowsOf(refs), (seq) => embedding.get(seq));
      announce('delete', result.removed);
      return result;
    },
    async deleteRemote(refs) {
      const result = await deleteRemote(
        {
          client: deps.client,
          assets,
          cancelUnfinished: (some) => queue.cancelUnfinished(some),
          dropTrashed: (seq) => trash.drop(seq),
        },
        rowsOf(refs),
      );
      announce('delete', result.deleted);
      return result;
    },
    exportTo: (refs, to) =>
      exportAssets(deps.root(), rowsOf(refs), to, (bytes, asset) => embedForExport(bytes, asset, marksOfAsset(asset))),
    serve: (request) => serveLocalMedia(deps.root(), request),
    async servePoster(videoId, request) {
      const row = assets.get('video', videoId);
      if (row?.thumb_path) {
        // A link the renderer still held after the poster was recorded.
        const recorded = await serveLocalMedia(deps.root(), { ...request, path: row.thumb_path });
        if (recorded.status < 400) return recorded;
      } else if (row?.url && wantsPosterLink(row) && !stopController.signal.aborted) {
        posters.request({ id: row.id, url: row.url });
      }
      return generatedPosterReply(request.method);
    },
    async backfillThumbnails() {
      // Newest first, a page of downloaded assets at a time, paced: at a million assets the walk
      // reads 200,000 rows, never at once nor holding a request back more than a slice.
      const signal = stopController.signal;
      const pace = pacer(paced);
      let before: TimeCursor | null = null;
      let made = 0;
      while (made < BACKFILL_LIMIT && !signal.aborted) {
        const page = copies.downloadedNewestFirst(before, BACKFILL_PAGE);
        const last = page.at(-1);
        if (!last) return;
        before = last;
        for (const row of page) {
          if (signal.aborted || made >= BACKFILL_LIMIT) return;
          // No thumbnail, or only the service's poster: the downloaded file's own is made.
          if (row.thumb_path && !isRemotePosterPath(row.thumb_path)) continue;
          const asset = assets.getBySeq(row.seq);
          if (asset) await thumbnailFor(asset);
          made += 1;
        }
        await pace();
      }
    },
  };
}
