// The download queue's scheduler: bounded concurrency, timers for scheduled retries, the queue's
// pause (a user's, a full disk's, a library move's), and one step of one download at a time per
// slot, wiring the parts: the runner (one step), the commits (batched), the outcomes (retry or
// give up, download-retries.ts), the events (throttled). Rows in the database are the truth.
// The slots bound transfers: a file whose bytes are all in frees its slot while it is fsynced,
// renamed and committed, so the next transfer does not wait for the disk.
import type BetterSqlite3 from 'better-sqlite3';
import type {
  DownloadInfo,
  DownloadQueueInfo,
  DownloadsChangedInfo,
  QueuePauseReasonInfo,
} from '../../contract/ipc/library.ts';
import type { AssetsRepo } from '../db/repos/assets-repo.ts';
import { DownloadsRepo, type DownloadRow } from '../db/repos/downloads-repo.ts';
import { SyncStateRepo } from '../db/repos/sync-state-repo.ts';
import { diskFullError, isDiskFull } from '../host/disk-full.ts';
import { HEARTBEAT_MS, workClaimsOf, type WorkClaims } from '../db/work-claims.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import { DownloadCommits } from './download-commits.ts';
import { DownloadFolders } from './download-folders.ts';
import { DownloadEvents, newLiveTransfer, trackSpeed, type LiveTransfer } from './download-events.ts';
import { DISK_FULL_MESSAGE, toDownloadInfo } from './download-info.ts';
import { applyOutcome, retryDelayOf, type AbortReason } from './download-retries.ts';
import { runDownloadStep, type StepOutcome } from './download-runner.ts';
import { MIN_FREE_BYTES, statfsFreeBytes } from './download-space.ts';
import type { MediaFetch } from './media-http.ts';
import type { LibraryServiceClient } from './service-port.ts';
import type { MediaLimits, PartFs } from './transfer.ts';

export interface DownloadQueueDeps {
  db: BetterSqlite3.Database;
  assets: AssetsRepo;
  /** The current library root (it changes after a move; the queue is paused while moving). */
  root(): string;
  /** The account's folder inside the root: '' (service account) or 'Demo'. */
  area?: string;
  client: LibraryServiceClient;
  concurrency(): number;
  emit(change: DownloadsChangedInfo): void;
  /** After a download is committed (thumbnails, asset events). */
  onSucceeded?(row: DownloadRow): void;
  now?(): number;
  random?(): number;
  /** Progress events at most this often per item (default 250 ms → ≤ 4/s). */
  progressIntervalMs?: number;
  prepareIntervalMs?: number;
  /** Delay before retry number `attempts` (tests shorten it); default the download backoff policy. */
  retryDelayMs?(attempts: number): number;
  fetch?: MediaFetch;
  fs?: PartFs;
  /** What one media answer may cost (tests shorten them); default DEFAULT_MEDIA_LIMITS. */
  limits?: Partial<MediaLimits>;
  /**
   * Bytes free for the library (tests inject a full disk); null when it cannot be told. Default:
   * statfs of the library folder.
   */
  freeBytes?(root: string): Promise<number | null>;
  logError?(message: string, error: unknown): void;
}

/** Bytes so far are written to the row this often while a transfer runs (a restart resumes anyway). */
const BYTES_PERSIST_INTERVAL_MS = 1_000;
const QUEUE_PAUSE_KEY = 'library.queuePaused';

interface Running {
  controller: AbortController;
  done: Promise<void>;
  row: DownloadRow;
  live: LiveTransfer;
  /** False once the body is in: fsync, rename and commit take no slot. */
  transferring: boolean;
}

/** The scheduling half of the DownloadQueue (download-queue.ts holds the commands). */
export class DownloadScheduler {
  readonly deps: DownloadQueueDeps;
  readonly downloads: DownloadsRepo;
  readonly #syncState: SyncStateRepo;
  readonly #claims: WorkClaims;
  readonly #commits: DownloadCommits;
  readonly events: DownloadEvents;
  readonly #running = new Map<number, Running>();
  readonly #folders = new DownloadFolders();
  #pause: QueuePauseReasonInfo | null = null;
  #started = false;
  #stopped = false;
  #wakeTimer: NodeJS.Timeout | null = null;
  #pumping = false;
  /** Transfers wait for the free-space check of start() and Resume. */
  #spaceChecked = false;

  constructor(deps: DownloadQueueDeps) {
    this.deps = deps;
    this.#claims = workClaimsOf(deps.db);
    this.downloads = new DownloadsRepo(deps.db, this.#claims.token);
    this.#syncState = new SyncStateRepo(deps.db);
    this.#commits = new DownloadCommits({
      db: deps.db,
      assets: deps.assets,
      downloads: this.downloads,
      now: () => this.now(),
      othersRunning: () => this.#transfers() > 0,
      release: (id) => this.#claims.release('downloads', id),
    });
    this.events = new DownloadEvents({
      emit: deps.emit,
      queueInfo: () => this.queueInfo(),
      info: (row) => this.info(row),
      rowOf: (id) => this.#running.get(id)?.row ?? this.downloads.get(id),
      intervalMs: deps.progressIntervalMs ?? 250,
    });
  }

  now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Picks up where the last process stopped (a user pause survives restarts; a full disk is re-detected). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (this.#syncState.get(QUEUE_PAUSE_KEY)) this.#pause = 'user';
    this.checkSpaceThenPump();
  }

  /**
   * A disk still full after a restart (or a Resume before space was freed) is said at once,
   * instead of resuming downloads that would only fill it again.
   */
  checkSpaceThenPump(): void {
    this.#spaceChecked = false;
    const freeBytes = this.deps.freeBytes ?? statfsFreeBytes;
    void freeBytes(this.deps.root())
      .catch(() => null)
      .then((free) => {
        this.#spaceChecked = true;
        if (this.#stopped) return;
        if (free !== null && free < MIN_FREE_BYTES && this.#pause === null) this.pauseQueue('disk_full');
        else this.pump();
      });
  }

  /**
   * A local write failed outside any one command (a timer, the end of a transfer). A full disk
   * pauses the whole queue in memory (the database may be unable to say so) with the one message;
   * anything else is logged. Never rethrown: it would end the process from a timer.
   */
  #localFailure(error: unknown, what: string): void {
    if (isDiskFull(error)) {
      if (this.#pause === null || this.#pause === 'moving') this.pauseQueue('disk_full');
      return;
    }
    this.deps.logError?.(what, error);
  }

  /** Runs a command's writes; a full disk fails this one operation with the message and pauses the queue. */
  command<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.#localFailure(error, '');
      throw diskFullError();
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
    this.#wakeTimer = null;
    this.events.stop();
    const running = [...this.#running.values()];
    for (const r of running) r.controller.abort('stop' satisfies AbortReason);
    await Promise.allSettled(running.map((r) => r.done));
  }

  // ---- state ----------------------------------------------------------------------------------

  queueInfo(): DownloadQueueInfo {
    // Derived from the rows: the unfinished ones this process is not transferring or committing.
    const figures = this.downloads.queueFigures([...this.#running.keys()]);
    return {
      state: this.#stopped ? 'stopped' : this.#pause ? 'paused' : 'running',
      pauseReason: this.#pause,
      message:
        this.#pause === 'disk_full'
          ? DISK_FULL_MESSAGE
          : this.#pause === 'moving'
            ? 'Paused while the library folder moves.'
            : this.#pause === 'user'
              ? 'Downloads are paused. Press Resume to continue.'
              : null,
      concurrency: this.deps.concurrency(),
      // Transfers; a file being flushed and committed (a few ms) counts as neither active nor waiting.
      active: this.#transfers(),
      waiting: figures.waiting,
      failed: figures.failed,
    };
  }

  info(row: DownloadRow): DownloadInfo {
    return toDownloadInfo(row, this.#running.get(row.id)?.live);
  }

  /** The asset's file_state mirrors the download (never 'downloaded': only the commit sets that). */
  mirror(row: DownloadRow): void {
    const fileState =
      row.state === 'failed'
        ? 'failed'
        : row.state === 'downloading' || row.state === 'preparing'
          ? 'downloading'
          : 'queued';
    this.deps.assets.setLocalFile(row.asset_seq, { fileState });
  }

  saveAndMirror(row: DownloadRow): void {
    writeTransaction(this.deps.db, () => {
      this.downloads.save(row, this.now());
      this.mirror(row);
    });
  }

  // ---- scheduling -----------------------------------------------------------------------------

  #transfers(): number {
    let n = 0;
    for (const r of this.#running.values()) if (r.transferring) n += 1;
    return n;
  }

  pump(): void {
    if (!this.#started || this.#stopped || this.#pumping || !this.#spaceChecked) return;
    this.#pumping = true;
    try {
      if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
      this.#wakeTimer = null;
      if (this.#pause) return;
      const concurrency = this.deps.concurrency();
      if (this.#transfers() < concurrency) {
        const due = this.downloads
          .due(this.now(), concurrency + this.#running.size)
          .filter((row) => !this.#running.has(row.id));
        // Claimed first: another process sharing the data folder may have picked the row meanwhile.
        for (const row of due) {
          if (this.#transfers() >= concurrency) break;
          if (this.#claims.claim('downloads', row.id)) this.#launch(row);
        }
      }
      const now = this.now();
      let next = this.downloads.nextWakeAt();
      if (next !== null && next <= now) next = null;
      // Work another process holds is looked at again, to take it over should that process die.
      if (this.downloads.heldElsewhere() > 0) next = Math.min(next ?? Infinity, now + HEARTBEAT_MS);
      if (next !== null) {
        this.#wakeTimer = setTimeout(() => this.pump(), Math.min(next - now + 5, 2 ** 31 - 1));
        this.#wakeTimer.unref?.();
      }
    } catch (error) {
      this.#localFailure(error, 'scheduling downloads failed');
    } finally {
      this.#pumping = false;
    }
  }

  #launch(row: DownloadRow): void {
    const running: Running = {
      controller: new AbortController(),
      row,
      live: newLiveTransfer(row.bytes_done, this.now()),
      done: Promise.resolve(),
      transferring: true,
    };
    this.#running.set(row.id, running);
    running.done = this.#runOnce(running).finally(() => {
      this.#running.delete(row.id);
      try {
        // Kept while it waits for its next step (a video being prepared); let go once it ended
        // (a success let go in its commit's transaction).
        if (!['queued', 'preparing', 'downloading', 'succeeded'].includes(row.state))
          this.#claims.release('downloads', row.id);
      } catch (error) {
        this.#localFailure(error, 'releasing a download failed');
      }
      this.pump();
    });
  }

  async #runOnce(running: Running): Promise<void> {
    const { row, controller } = running;
    let outcome: StepOutcome;
    try {
      outcome = await runDownloadStep(
        {
          root: this.deps.root(),
          area: this.deps.area ?? '',
          client: this.deps.client,
          signal: controller.signal,
          now: () => this.now(),
          ...(this.deps.prepareIntervalMs !== undefined ? { prepareIntervalMs: this.deps.prepareIntervalMs } : {}),
          ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
          ...(this.deps.fs ? { fs: this.deps.fs } : {}),
          ...(this.deps.limits ? { limits: this.deps.limits } : {}),
          onProgress: (bytes, _total, hls) =>
            this.#progress(running, bytes, hls?.filesTotal ? hls.filesDone / hls.filesTotal : null),
          onChange: () => {
            if (controller.signal.aborted) return;
            this.saveAndMirror(row);
            this.events.changed([row]);
          },
          onReceived: () => {
            running.transferring = false;
            this.pump();
          },
          folders: this.#folders,
          commit: (file) => this.#commits.commit(file),
          hasRoom: () => this.#hasRoom(),
        },
        row,
      );
    } catch (error) {
      this.deps.logError?.('download step failed unexpectedly', error);
      outcome = {
        kind: 'failed',
        code: 'internal',
        message: 'The download failed unexpectedly; details are in the log.',
      };
    }
    try {
      this.#apply(running, outcome);
    } catch (error) {
      // Its outcome could not be saved (the database's disk is full too): the row says what it
      // said before, and is picked up again after Resume.
      this.#localFailure(error, 'saving a download step failed');
    }
  }

  /** The library's disk is above the floor (unknown counts as room: the write's ENOSPC still pauses). */
  async #hasRoom(): Promise<boolean> {
    const free = await (this.deps.freeBytes ?? statfsFreeBytes)(this.deps.root()).catch(() => null);
    return free === null || free >= MIN_FREE_BYTES;
  }

  #progress(running: Running, bytes: number, fraction: number | null): void {
    const now = this.now();
    trackSpeed(running.live, bytes, fraction, now);
    if (now - running.live.persistedAt >= BYTES_PERSIST_INTERVAL_MS) {
      running.live.persistedAt = now;
      this.downloads.saveProgress(running.row, now);
    }
    this.events.moved(running.row.id);
  }

  #apply(running: Running, outcome: StepOutcome): void {
    const { row, controller } = running;
    const reason = controller.signal.aborted ? (controller.signal.reason as AbortReason) : null;
    if (this.#stopped || reason === 'stop' || reason === 'cancel') return;
    const backoff = this.deps.retryDelayMs ?? retryDelayOf(this.deps.random ?? Math.random);
    const effect = applyOutcome(row, outcome, { now: this.now(), reason, backoff });
    switch (effect.kind) {
      case 'succeeded':
        running.live.fraction = null;
        this.events.changed([row]);
        this.deps.onSucceeded?.(row);
        return;
      case 'save':
        this.downloads.save(row, this.now());
        return;
      case 'disk-full':
        // Paused first: saving the row may fail too when the database shares the full disk.
        this.pauseQueue('disk_full');
        this.saveAndMirror(row);
        this.events.changed([row]);
        return;
      case 'save-and-mirror':
        this.saveAndMirror(row);
        this.events.changed([row]);
        return;
    }
  }

  pauseQueue(reason: QueuePauseReasonInfo): void {
    this.#pause = reason;
    try {
      if (reason === 'user') this.#syncState.set(QUEUE_PAUSE_KEY, true, this.now());
    } catch (error) {
      // Paused all the same; only its surviving a restart is lost.
      if (!isDiskFull(error)) throw error;
    }
    for (const r of this.#running.values()) r.controller.abort('pause-queue' satisfies AbortReason);
    this.events.queue();
  }

  // ---- for the commands (download-queue.ts) ------------------------------------------------------

  /** The running copy of a row (the one a step updates), when it runs. */
  runningOf(id: number): { row: DownloadRow; abort(reason: AbortReason): void; done: Promise<void> } | undefined {
    const running = this.#running.get(id);
    return running && { row: running.row, abort: (reason) => running.controller.abort(reason), done: running.done };
  }

  get pauseReason(): QueuePauseReasonInfo | null {
    return this.#pause;
  }

  /** Ends the queue's pause (a user's Resume, the end of a move) and starts what is due. */
  endPause(next: QueuePauseReasonInfo | null, checkSpace: boolean): void {
    this.#pause = next;
    this.events.queue();
    if (checkSpace) this.checkSpaceThenPump();
    else this.pump();
  }

  /** The user's pause no longer survives a restart (written before the pause ends). */
  forgetUserPause(): void {
    this.#syncState.delete(QUEUE_PAUSE_KEY);
  }

  async waitForRunning(): Promise<void> {
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
  }

  /** After a library move the folders are new: checked again. */
  forgetFolders(): void {
    this.#folders.clear();
  }
}
