// The download queue: bounded concurrency, scheduled retries with jittered backoff, pause and
// resume (per item or the whole queue, which is also what a full disk does), cancel, and
// change events throttled per item. Rows in the database are the truth; this keeps the timers.
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { AppError, type ErrorCode } from '../../contract/errors.ts';
import type {
  AssetRefInfo,
  DownloadInfo,
  DownloadQueueInfo,
  DownloadsChangedInfo,
  DownloadsInfo,
  QueuePauseReasonInfo,
} from '../../contract/ipc/library.ts';
import type { AssetsRepo } from '../db/repos/assets-repo.ts';
import { diskFullError, isDiskFull } from '../db/disk-full.ts';
import { HEARTBEAT_MS, workClaimsOf, type WorkClaims } from '../db/work-claims.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import { DISK_FULL_MESSAGE, initialDest, toDownloadInfo, type LiveProgress } from './download-info.ts';
import { removePartials, runDownloadStep, type StepOutcome } from './download-runner.ts';
import { DownloadStore, type DownloadMode, type DownloadWithAsset } from './download-store.ts';
import type { MediaFetch } from './media-http.ts';
import type { LibraryServiceClient } from './service-port.ts';
import type { PartFs } from './transfer.ts';

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
  onSucceeded?(row: DownloadWithAsset): void;
  now?(): number;
  random?(): number;
  /** Progress events at most this often per item (default 250 ms → ≤ 4/s). */
  progressIntervalMs?: number;
  prepareIntervalMs?: number;
  /** Delay before retry number `attempts` (tests shorten it); default full-jitter backoff. */
  retryDelayMs?(attempts: number): number;
  fetch?: MediaFetch;
  fs?: PartFs;
  /**
   * Bytes free for the library (tests inject a full disk); null when it cannot be told. Default:
   * statfs of the library folder.
   */
  freeBytes?(root: string): Promise<number | null>;
  logError?(message: string, error: unknown): void;
}

/** Below this much free space the queue does not start transfers: it would only fill the disk. */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

/** Free bytes where the library is (its nearest existing folder), or null when unknown. */
async function statfsFreeBytes(root: string): Promise<number | null> {
  for (let dir = root; ; dir = dirname(dir)) {
    try {
      const s = await statfs(dir);
      return s.bavail * s.bsize;
    } catch {
      if (dirname(dir) === dir) return null;
    }
  }
}

const MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = 2_000;
const BACKOFF_CAP_MS = 5 * 60_000;
const BYTES_PERSIST_INTERVAL_MS = 1_000;
const SUCCEEDED_VISIBLE_MS = 24 * 60 * 60_000;
const QUEUE_PAUSE_KEY = 'library.queuePaused';

type AbortReason = 'pause-item' | 'pause-queue' | 'cancel' | 'stop';

interface Running {
  controller: AbortController;
  done: Promise<void>;
  row: DownloadWithAsset;
  live: LiveProgress & { lastBytes: number; lastAt: number; persistedAt: number };
}

const keyOf = (ref: AssetRefInfo): string => `${ref.kind}:${ref.id}`;

export class DownloadQueue {
  readonly #deps: DownloadQueueDeps;
  readonly #downloads: DownloadStore;
  readonly #claims: WorkClaims;
  readonly #running = new Map<number, Running>();
  readonly #dirty = new Set<number>();
  readonly #pauseStmt: {
    get: BetterSqlite3.Statement<[string], { value: string }>;
    set: BetterSqlite3.Statement;
    del: BetterSqlite3.Statement;
  };
  #pause: QueuePauseReasonInfo | null = null;
  #started = false;
  #stopped = false;
  #wakeTimer: NodeJS.Timeout | null = null;
  #flushTimer: NodeJS.Timeout | null = null;
  #pumping = false;
  /** Transfers wait for the free-space check of start() and Resume. */
  #spaceChecked = false;

  constructor(deps: DownloadQueueDeps) {
    this.#deps = deps;
    this.#claims = workClaimsOf(deps.db);
    this.#downloads = new DownloadStore(deps.db, this.#claims.token);
    this.#pauseStmt = {
      get: deps.db.prepare('SELECT value FROM sync_state WHERE key = ?'),
      set: deps.db.prepare(
        'INSERT INTO sync_state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      ),
      del: deps.db.prepare('DELETE FROM sync_state WHERE key = ?'),
    };
  }

  get downloads(): DownloadStore {
    return this.#downloads;
  }

  #now(): number {
    return this.#deps.now?.() ?? Date.now();
  }

  /** Picks up where the last process stopped (a user pause survives restarts; a full disk is re-detected). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (this.#pauseStmt.get.get(QUEUE_PAUSE_KEY)) this.#pause = 'user';
    this.#checkSpaceThenPump();
  }

  /**
   * A disk still full after a restart (or a Resume before space was freed) is said at once,
   * instead of resuming downloads that would only fill it again.
   */
  #checkSpaceThenPump(): void {
    this.#spaceChecked = false;
    const freeBytes = this.#deps.freeBytes ?? statfsFreeBytes;
    void freeBytes(this.#deps.root())
      .catch(() => null)
      .then((free) => {
        this.#spaceChecked = true;
        if (this.#stopped) return;
        if (free !== null && free < MIN_FREE_BYTES && this.#pause === null) this.#pauseQueue('disk_full');
        else this.#pump();
      });
  }

  /**
   * A local write failed outside any one command (a timer, the end of a transfer). A full disk
   * pauses the whole queue in memory (the database may be unable to say so) with the one message;
   * anything else is logged. Never rethrown: it would end the process from a timer.
   */
  #localFailure(error: unknown, what: string): void {
    if (isDiskFull(error)) {
      if (this.#pause === null || this.#pause === 'moving') this.#pauseQueue('disk_full');
      return;
    }
    this.#deps.logError?.(what, error);
  }

  /** Runs a command's writes; a full disk fails this one operation with the message and pauses the queue. */
  #command<T>(work: () => T): T {
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
    this.#clearTimers();
    const running = [...this.#running.values()];
    for (const r of running) r.controller.abort('stop' satisfies AbortReason);
    await Promise.allSettled(running.map((r) => r.done));
  }

  #clearTimers(): void {
    if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#wakeTimer = null;
    this.#flushTimer = null;
  }

  // ---- state and events -------------------------------------------------------------------

  queueInfo(): DownloadQueueInfo {
    const counts = this.#downloads.counts();
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
      concurrency: this.#deps.concurrency(),
      active: this.#running.size,
      waiting: counts.queued + counts.preparing + counts.downloading - this.#running.size + counts.paused,
      failed: counts.failed,
    };
  }

  list(): DownloadsInfo {
    return {
      queue: this.queueInfo(),
      items: this.#downloads.visible(this.#now() - SUCCEEDED_VISIBLE_MS).map((row) => this.#info(row)),
    };
  }

  #info(row: DownloadWithAsset): DownloadInfo {
    return toDownloadInfo(row, this.#running.get(row.id)?.live);
  }

  #emit(changed: DownloadWithAsset[], removed: AssetRefInfo[] = []): void {
    for (const row of changed) this.#dirty.delete(row.id);
    this.#deps.emit({ queue: this.queueInfo(), changed: changed.map((row) => this.#info(row)), removed });
  }

  /** Progress is coalesced: one event per interval carries every item that moved. */
  #markDirty(id: number): void {
    this.#dirty.add(id);
    if (this.#flushTimer || this.#stopped) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = null;
      const rows = [...this.#dirty]
        .map((id) => this.#running.get(id)?.row ?? this.#downloads.get(id))
        .filter((r) => r !== undefined);
      this.#dirty.clear();
      if (rows.length > 0) this.#emit(rows);
    }, this.#deps.progressIntervalMs ?? 250);
    this.#flushTimer.unref?.();
  }

  #save(row: DownloadWithAsset): void {
    this.#downloads.save(row, this.#now());
  }

  /** The asset's file_state mirrors the download (never 'downloaded': only the commit sets that). */
  #mirror(row: DownloadWithAsset): void {
    const fileState =
      row.state === 'failed'
        ? 'failed'
        : row.state === 'downloading' || row.state === 'preparing'
          ? 'downloading'
          : 'queued';
    this.#deps.assets.setLocalFile(row.asset_seq, { fileState });
  }

  #saveAndMirror(row: DownloadWithAsset): void {
    writeTransaction(this.#deps.db, () => {
      this.#save(row);
      this.#mirror(row);
    });
  }

  // ---- scheduling ---------------------------------------------------------------------------

  #pump(): void {
    if (!this.#started || this.#stopped || this.#pumping || !this.#spaceChecked) return;
    this.#pumping = true;
    try {
      if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
      this.#wakeTimer = null;
      if (this.#pause) return;
      const free = this.#deps.concurrency() - this.#running.size;
      if (free > 0) {
        const due = this.#downloads
          .due(this.#now(), free + this.#running.size)
          .filter((row) => !this.#running.has(row.id));
        // Claimed first: another process sharing the data folder may have picked the row meanwhile.
        for (const row of due) {
          if (this.#running.size >= this.#deps.concurrency()) break;
          if (this.#claims.claim('downloads', row.id)) this.#launch(row);
        }
      }
      const now = this.#now();
      let next = this.#downloads.nextWakeAt();
      if (next !== null && next <= now) next = null;
      // Work another process holds is looked at again, to take it over should that process die.
      if (this.#downloads.heldElsewhere() > 0) next = Math.min(next ?? Infinity, now + HEARTBEAT_MS);
      if (next !== null) {
        this.#wakeTimer = setTimeout(() => this.#pump(), Math.min(next - now + 5, 2 ** 31 - 1));
        this.#wakeTimer.unref?.();
      }
    } catch (error) {
      this.#localFailure(error, 'scheduling downloads failed');
    } finally {
      this.#pumping = false;
    }
  }

  #launch(row: DownloadWithAsset): void {
    const controller = new AbortController();
    const now = this.#now();
    const running: Running = {
      controller,
      row,
      live: { bytesPerSecond: null, fraction: null, lastBytes: row.bytes_done, lastAt: now, persistedAt: now },
      done: Promise.resolve(),
    };
    this.#running.set(row.id, running);
    running.done = this.#runOnce(running).finally(() => {
      this.#running.delete(row.id);
      try {
        // Kept while it waits for its next step (a video being prepared); let go once it ended.
        if (!['queued', 'preparing', 'downloading'].includes(row.state)) this.#claims.release('downloads', row.id);
      } catch (error) {
        this.#localFailure(error, 'releasing a download failed');
      }
      this.#pump();
    });
  }

  async #runOnce(running: Running): Promise<void> {
    const { row, controller } = running;
    let outcome: StepOutcome;
    try {
      outcome = await runDownloadStep(
        {
          db: this.#deps.db,
          assets: this.#deps.assets,
          downloads: this.#downloads,
          root: this.#deps.root(),
          area: this.#deps.area ?? '',
          client: this.#deps.client,
          signal: controller.signal,
          now: () => this.#now(),
          ...(this.#deps.prepareIntervalMs !== undefined ? { prepareIntervalMs: this.#deps.prepareIntervalMs } : {}),
          ...(this.#deps.fetch ? { fetch: this.#deps.fetch } : {}),
          ...(this.#deps.fs ? { fs: this.#deps.fs } : {}),
          onProgress: (bytes, _total, hls) =>
            this.#progress(running, bytes, hls?.filesTotal ? hls.filesDone / hls.filesTotal : null),
          onChange: () => {
            if (controller.signal.aborted) return;
            this.#saveAndMirror(row);
            this.#emit([row]);
          },
        },
        row,
      );
    } catch (error) {
      this.#deps.logError?.('download step failed unexpectedly', error);
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

  #progress(running: Running, bytes: number, fraction: number | null): void {
    const now = this.#now();
    const live = running.live;
    const elapsed = now - live.lastAt;
    if (elapsed >= 500) {
      const rate = ((bytes - live.lastBytes) * 1000) / elapsed;
      live.bytesPerSecond = live.bytesPerSecond === null ? rate : live.bytesPerSecond * 0.6 + rate * 0.4;
      live.lastAt = now;
      live.lastBytes = bytes;
    }
    live.fraction = fraction;
    if (now - live.persistedAt >= BYTES_PERSIST_INTERVAL_MS) {
      live.persistedAt = now;
      this.#save(running.row);
    }
    this.#markDirty(running.row.id);
  }

  #apply(running: Running, outcome: StepOutcome): void {
    const { row, controller } = running;
    const reason = controller.signal.aborted ? (controller.signal.reason as AbortReason) : null;
    if (this.#stopped || reason === 'stop' || reason === 'cancel') return;
    const now = this.#now();
    switch (outcome.kind) {
      case 'succeeded':
        running.live.fraction = null;
        this.#emit([row]);
        this.#deps.onSucceeded?.(row);
        return;
      case 'later':
        row.next_attempt_at = outcome.at;
        this.#save(row);
        return;
      case 'aborted':
        if (reason === 'pause-item') row.state = 'paused';
        else if (row.state === 'downloading') row.state = 'queued';
        this.#saveAndMirror(row);
        this.#emit([row]);
        return;
      case 'disk_full':
        // Paused first: saving the row may fail too when the database shares the full disk.
        this.#pauseQueue('disk_full');
        row.state = 'queued';
        row.error = DISK_FULL_MESSAGE;
        row.error_code = 'disk_full';
        this.#saveAndMirror(row);
        this.#emit([row]);
        return;
      case 'retry': {
        row.attempts = outcome.progressed ? 1 : row.attempts + 1;
        if (row.attempts >= MAX_ATTEMPTS) {
          this.#fail(row, outcome.code, `${outcome.message} (gave up after ${row.attempts} tries; press Retry)`);
          return;
        }
        row.error = outcome.message;
        row.error_code = outcome.code;
        if (outcome.immediately) {
          // A dead signed link: the next step asks for a fresh one (a new preparation for MP4).
          row.url = null;
          row.prepare_percent = null;
          row.state = 'queued';
          row.next_attempt_at = row.attempts <= 2 ? now : now + this.#backoff(row.attempts);
        } else {
          row.next_attempt_at = now + this.#backoff(row.attempts);
          if (row.state !== 'preparing') row.state = 'queued';
        }
        this.#saveAndMirror(row);
        this.#emit([row]);
        return;
      }
      case 'failed':
        this.#fail(row, outcome.code, outcome.message);
        return;
    }
  }

  /** Full jitter: anywhere up to the capped exponential step, at least a second. */
  #backoff(attempts: number): number {
    if (this.#deps.retryDelayMs) return this.#deps.retryDelayMs(attempts);
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempts - 1));
    return Math.max(1_000, Math.floor((this.#deps.random?.() ?? Math.random()) * ceiling));
  }

  #fail(row: DownloadWithAsset, code: ErrorCode, message: string): void {
    row.state = 'failed';
    row.error = message;
    row.error_code = code;
    row.next_attempt_at = null;
    this.#saveAndMirror(row);
    this.#emit([row]);
  }

  #pauseQueue(reason: QueuePauseReasonInfo): void {
    this.#pause = reason;
    try {
      if (reason === 'user') this.#pauseStmt.set.run(QUEUE_PAUSE_KEY, 'true', this.#now());
    } catch (error) {
      // Paused all the same; only its surviving a restart is lost.
      if (!isDiskFull(error)) throw error;
    }
    for (const r of this.#running.values()) r.controller.abort('pause-queue' satisfies AbortReason);
    this.#deps.emit({ queue: this.queueInfo(), changed: [], removed: [] });
  }

  // ---- commands -------------------------------------------------------------------------------

  #rows(refs: readonly AssetRefInfo[]): DownloadWithAsset[] {
    const rows: DownloadWithAsset[] = [];
    for (const ref of refs) {
      const asset = this.#deps.assets.get(ref.kind, ref.id);
      const row = asset ? this.#downloads.getByAsset(asset.seq) : undefined;
      if (row) rows.push(this.#running.get(row.id)?.row ?? row);
    }
    return rows;
  }

  /** Queues downloads; already downloaded or already queued assets are left as they are. */
  enqueue(refs: readonly AssetRefInfo[], videoMode: 'mp4' | 'hls' = 'mp4'): DownloadInfo[] {
    const out: DownloadWithAsset[] = [];
    const unknown: string[] = [];
    this.#command(() =>
      writeTransaction(this.#deps.db, () => {
        for (const ref of refs) {
          const asset = this.#deps.assets.get(ref.kind, ref.id);
          if (!asset) {
            unknown.push(keyOf(ref));
            continue;
          }
          const existing = this.#downloads.getByAsset(asset.seq);
          const active = existing && ['queued', 'preparing', 'downloading', 'paused'].includes(existing.state);
          if (asset.file_state === 'downloaded' || active) {
            if (existing) out.push(existing);
            continue;
          }
          let mode: DownloadMode = 'file';
          if (asset.kind === 'video') mode = videoMode === 'hls' && asset.hls ? 'hls' : 'mp4';
          const url = mode === 'mp4' ? null : asset.url;
          const row = this.#downloads.enqueue(
            asset.seq,
            mode,
            initialDest(ref, mode, url, this.#deps.area ?? ''),
            url,
            this.#now(),
          );
          this.#mirror(row);
          out.push(row);
        }
      }),
    );
    if (out.length === 0 && unknown.length > 0) {
      throw new AppError({ code: 'not_found', message: `No such asset in the library: ${unknown[0]}` });
    }
    this.#emit(out);
    this.#pump();
    return out.map((row) => this.#info(row));
  }

  pause(refs?: readonly AssetRefInfo[]): DownloadsInfo {
    if (!refs) {
      this.#pauseQueue('user');
      return this.list();
    }
    const changed: DownloadWithAsset[] = [];
    for (const row of this.#rows(refs)) {
      const running = this.#running.get(row.id);
      if (running) {
        running.controller.abort('pause-item' satisfies AbortReason);
        continue;
      }
      if (row.state === 'queued' || row.state === 'preparing' || row.state === 'downloading') {
        row.state = 'paused';
        this.#command(() => this.#saveAndMirror(row));
        changed.push(row);
      }
    }
    if (changed.length) this.#emit(changed);
    return this.list();
  }

  resume(refs?: readonly AssetRefInfo[]): DownloadsInfo {
    const rows = refs ? this.#rows(refs) : this.#downloads.inState('paused');
    const changed: DownloadWithAsset[] = [];
    // Written before the pause ends: on a disk still full this fails with the message, still paused.
    this.#command(() => {
      if (!refs) this.#pauseStmt.del.run(QUEUE_PAUSE_KEY);
      for (const row of rows) {
        if (row.state !== 'paused' && !(row.error_code === 'disk_full' && row.state === 'queued')) continue;
        row.state = 'queued';
        row.next_attempt_at = null;
        row.error = null;
        row.error_code = null;
        this.#saveAndMirror(row);
        changed.push(row);
      }
    });
    this.#emit(changed);
    if (refs) this.#pump();
    else {
      this.#pause = null;
      this.#deps.emit({ queue: this.queueInfo(), changed: [], removed: [] });
      this.#checkSpaceThenPump();
    }
    return this.list();
  }

  /** Used by the library move: no transfers while files change place. */
  async holdForMove(): Promise<() => void> {
    const previous = this.#pause;
    this.#pauseQueue('moving');
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
    return () => {
      this.#pause = previous === 'moving' ? null : previous;
      this.#deps.emit({ queue: this.queueInfo(), changed: [], removed: [] });
      this.#pump();
    };
  }

  retry(refs: readonly AssetRefInfo[]): DownloadsInfo {
    const changed: DownloadWithAsset[] = [];
    for (const row of this.#rows(refs)) {
      if (row.state !== 'failed' && row.state !== 'paused') continue;
      row.state = 'queued';
      row.attempts = 0;
      row.error = null;
      row.error_code = null;
      row.next_attempt_at = null;
      // A video whose preparation failed asks the service again from the start.
      if (row.mode === 'mp4') {
        row.url = null;
        row.prepare_percent = null;
      }
      this.#command(() => this.#saveAndMirror(row));
      changed.push(row);
    }
    this.#emit(changed);
    this.#pump();
    return this.list();
  }

  async cancel(refs: readonly AssetRefInfo[]): Promise<DownloadsInfo> {
    const removed: AssetRefInfo[] = [];
    for (const row of this.#rows(refs)) {
      const running = this.#running.get(row.id);
      if (running) {
        running.controller.abort('cancel' satisfies AbortReason);
        await running.done;
      }
      const ref = { kind: row.asset_kind, id: row.asset_id };
      if (row.state !== 'succeeded') {
        await removePartials(this.#deps.root(), ref, this.#deps.area ?? '');
        writeTransaction(this.#deps.db, () => {
          this.#downloads.delete(row.id);
          const asset = this.#deps.assets.getBySeq(row.asset_seq);
          if (asset && asset.file_state !== 'downloaded')
            this.#deps.assets.setLocalFile(row.asset_seq, { fileState: 'remote' });
        });
      } else {
        this.#downloads.delete(row.id);
      }
      removed.push(ref);
    }
    this.#emit([], removed);
    this.#pump();
    return this.list();
  }

  /** Nudges the scheduler (concurrency changed, an asset was added). */
  poke(): void {
    this.#pump();
  }
}
