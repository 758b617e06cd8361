// The download queue: what the user and the app ask of downloads (enqueue, pause and resume per
// item or the whole queue, retry, cancel, hold for a library move) and the queue's figures. It
// builds the parts each holding one concern: the rows (the database is the truth; the order is
// the downloads table's, downloads-repo.ts `due`), the whole queue's pause (queue-pause.ts), the
// steps running now (running-downloads.ts), when they run (download-scheduler.ts), the commits
// (download-commits.ts) and the events (download-events.ts).
import { AppError } from '../../../contract/errors.ts';
import type {
  AssetRefInfo,
  DownloadInfo,
  DownloadQueueInfo,
  DownloadsInfo,
  QueuePauseReasonInfo,
} from '../../../contract/ipc/library.ts';
import { DownloadsRepo, type DownloadMode, type DownloadRow } from '../../db/repos/downloads-repo.ts';
import { SyncStateRepo } from '../../db/repos/sync-state-repo.ts';
import { workClaimsOf } from '../../db/work-claims.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { DownloadCommits } from './download-commits.ts';
import { DownloadEvents } from './download-events.ts';
import { DownloadFolders } from './download-folders.ts';
import { initialDest, toDownloadInfo } from './download-info.ts';
import { DownloadRows } from './download-rows.ts';
import type { AbortReason } from './download-retries.ts';
import { removePartials } from './download-runner.ts';
import { DownloadScheduler } from './download-scheduler.ts';
import type { DownloadQueueDeps } from './queue-deps.ts';
import { QueuePause } from './queue-pause.ts';
import { RunningDownloads } from './running-downloads.ts';

export type { DownloadQueueDeps } from './queue-deps.ts';

const SUCCEEDED_VISIBLE_MS = 24 * 60 * 60_000;

const keyOf = (ref: AssetRefInfo): string => `${ref.kind}:${ref.id}`;

export class DownloadQueue {
  readonly #deps: DownloadQueueDeps;
  readonly #downloads: DownloadsRepo;
  readonly #rows: DownloadRows;
  readonly #pause: QueuePause;
  readonly #running = new RunningDownloads();
  readonly #folders = new DownloadFolders();
  readonly #events: DownloadEvents;
  readonly #scheduler: DownloadScheduler;

  constructor(deps: DownloadQueueDeps) {
    this.#deps = deps;
    const now = (): number => deps.now?.() ?? Date.now();
    const claims = workClaimsOf(deps.db);
    this.#downloads = new DownloadsRepo(deps.db, claims.token);
    this.#rows = new DownloadRows(deps.db, deps.assets, this.#downloads, now);
    this.#events = new DownloadEvents({
      emit: deps.emit,
      queueInfo: () => this.queueInfo(),
      info: (row) => this.#info(row),
      rowOf: (id) => this.#running.of(id)?.row ?? this.#downloads.get(id),
      intervalMs: deps.progressIntervalMs ?? 250,
    });
    this.#pause = new QueuePause({
      syncState: new SyncStateRepo(deps.db),
      now,
      onPause: () => {
        this.#running.abortAll('pause-queue');
        this.#events.queue();
      },
      onChange: () => this.#events.queue(),
      ...(deps.logError ? { logError: deps.logError } : {}),
    });
    const commits = new DownloadCommits({
      db: deps.db,
      assets: deps.assets,
      downloads: this.#downloads,
      now,
      othersRunning: () => this.#running.transfers() > 0,
      release: (id) => claims.release('downloads', id),
    });
    this.#scheduler = new DownloadScheduler({
      deps,
      downloads: this.#downloads,
      rows: this.#rows,
      claims,
      pause: this.#pause,
      running: this.#running,
      events: this.#events,
      commits,
      folders: this.#folders,
      now,
    });
  }

  #now(): number {
    return this.#deps.now?.() ?? Date.now();
  }

  #info(row: DownloadRow): DownloadInfo {
    return toDownloadInfo(row, this.#running.of(row.id)?.live);
  }

  /** Picks up where the last process stopped (a user pause survives restarts; a full disk is re-detected). */
  start(): void {
    this.#pause.restore();
    this.#scheduler.start();
  }

  stop(): Promise<void> {
    return this.#scheduler.stop();
  }

  queueInfo(): DownloadQueueInfo {
    // Derived from the rows: the unfinished ones this process is not transferring or committing.
    const figures = this.#downloads.queueFigures(this.#running.ids());
    const pause = this.#pause.reason;
    return {
      state: this.#scheduler.stopped ? 'stopped' : pause ? 'paused' : 'running',
      pauseReason: pause,
      message: this.#pause.message(),
      concurrency: this.#deps.concurrency(),
      // Transfers; a file being flushed and committed (a few ms) counts as neither active nor waiting.
      active: this.#running.transfers(),
      waiting: figures.waiting,
      failed: figures.failed,
    };
  }

  list(): DownloadsInfo {
    return {
      queue: this.queueInfo(),
      items: this.#downloads.visible(this.#now() - SUCCEEDED_VISIBLE_MS).map((row) => this.#info(row)),
    };
  }

  #rowsOf(refs: readonly AssetRefInfo[]): DownloadRow[] {
    const rows: DownloadRow[] = [];
    for (const ref of refs) {
      const asset = this.#deps.assets.get(ref.kind, ref.id);
      const row = asset ? this.#downloads.getByAsset(asset.seq) : undefined;
      if (row) rows.push(this.#running.of(row.id)?.row ?? row);
    }
    return rows;
  }

  /** Queues downloads; already downloaded or already queued assets are left as they are. */
  enqueue(refs: readonly AssetRefInfo[], videoMode: 'mp4' | 'hls' = 'mp4'): DownloadInfo[] {
    const out: DownloadRow[] = [];
    const unknown: string[] = [];
    this.#pause.command(() =>
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
          this.#rows.mirror(row);
          out.push(row);
        }
      }),
    );
    if (out.length === 0 && unknown.length > 0) {
      throw new AppError({ code: 'not_found', message: `No such asset in the library: ${unknown[0]}` });
    }
    this.#events.changed(out);
    this.#scheduler.pump();
    return out.map((row) => this.#info(row));
  }

  pause(refs?: readonly AssetRefInfo[]): DownloadsInfo {
    if (!refs) {
      this.#pause.pause('user');
      return this.list();
    }
    const changed: DownloadRow[] = [];
    for (const row of this.#rowsOf(refs)) {
      const running = this.#running.of(row.id);
      if (running) {
        running.controller.abort('pause-item' satisfies AbortReason);
        continue;
      }
      if (row.state === 'queued' || row.state === 'preparing' || row.state === 'downloading') {
        row.state = 'paused';
        this.#pause.command(() => this.#rows.saveAndMirror(row));
        changed.push(row);
      }
    }
    if (changed.length) this.#events.changed(changed);
    return this.list();
  }

  resume(refs?: readonly AssetRefInfo[]): DownloadsInfo {
    const rows = refs ? this.#rowsOf(refs) : this.#downloads.inState('paused');
    const changed: DownloadRow[] = [];
    // Written before the pause ends: on a disk still full this fails with the message, still paused.
    this.#pause.command(() => {
      if (!refs) this.#pause.forgetUserPause();
      for (const row of rows) {
        if (row.state !== 'paused' && !(row.error_code === 'disk_full' && row.state === 'queued')) continue;
        row.state = 'queued';
        row.next_attempt_at = null;
        row.error = null;
        row.error_code = null;
        this.#rows.saveAndMirror(row);
        changed.push(row);
      }
    });
    this.#events.changed(changed);
    if (refs) this.#scheduler.pump();
    else this.#endPause(null, true);
    return this.list();
  }

  /** Ends the queue's pause (a user's Resume, the end of a move) and starts what is due. */
  #endPause(next: QueuePauseReasonInfo | null, checkSpace: boolean): void {
    this.#pause.end(next);
    if (checkSpace) this.#scheduler.checkSpaceThenPump();
    else this.#scheduler.pump();
  }

  /** Used by the library move: no transfers while files change place. */
  async holdForMove(): Promise<() => void> {
    const previous = this.#pause.reason;
    this.#pause.pause('moving');
    await this.#running.settled();
    return () => {
      this.#folders.clear();
      this.#endPause(previous === 'moving' ? null : previous, false);
    };
  }

  retry(refs: readonly AssetRefInfo[]): DownloadsInfo {
    const changed: DownloadRow[] = [];
    for (const row of this.#rowsOf(refs)) {
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
      this.#pause.command(() => this.#rows.saveAndMirror(row));
      changed.push(row);
    }
    this.#events.changed(changed);
    this.#scheduler.pump();
    return this.list();
  }

  /** Cancels the assets' downloads that have not finished (an asset gone from the service). */
  async cancelUnfinished(refs: readonly AssetRefInfo[]): Promise<void> {
    const unfinished = this.#rowsOf(refs).filter((row) => row.state !== 'succeeded');
    if (unfinished.length) await this.#cancelRows(unfinished);
  }

  cancel(refs: readonly AssetRefInfo[]): Promise<DownloadsInfo> {
    return this.#cancelRows(this.#rowsOf(refs));
  }

  async #cancelRows(rows: readonly DownloadRow[]): Promise<DownloadsInfo> {
    const removed: AssetRefInfo[] = [];
    for (const row of rows) {
      const running = this.#running.of(row.id);
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
    this.#events.changed([], removed);
    this.#scheduler.pump();
    return this.list();
  }

  /** Nudges the scheduler (concurrency changed, an asset was added). */
  poke(): void {
    this.#scheduler.pump();
  }
}
