// The download queue: what the user and the app ask of downloads (enqueue, pause and resume per
// item or the whole queue, retry, cancel, hold for a library move) on top of its scheduler
// (download-scheduler.ts: slots, timers, steps, outcomes, the queue's pause). Rows in the
// database are the truth.
import { AppError } from '../../../contract/errors.ts';
import type { AssetRefInfo, DownloadInfo, DownloadQueueInfo, DownloadsInfo } from '../../../contract/ipc/library.ts';
import type { DownloadMode, DownloadRow, DownloadsRepo } from '../../db/repos/downloads-repo.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { initialDest } from './download-info.ts';
import { removePartials } from './download-runner.ts';
import { DownloadScheduler, type DownloadQueueDeps } from './download-scheduler.ts';

export type { DownloadQueueDeps } from './download-scheduler.ts';

const SUCCEEDED_VISIBLE_MS = 24 * 60 * 60_000;

const keyOf = (ref: AssetRefInfo): string => `${ref.kind}:${ref.id}`;

export class DownloadQueue {
  readonly #s: DownloadScheduler;

  constructor(deps: DownloadQueueDeps) {
    this.#s = new DownloadScheduler(deps);
  }

  get downloads(): DownloadsRepo {
    return this.#s.downloads;
  }

  /** Picks up where the last process stopped (a user pause survives restarts; a full disk is re-detected). */
  start(): void {
    this.#s.start();
  }

  stop(): Promise<void> {
    return this.#s.stop();
  }

  queueInfo(): DownloadQueueInfo {
    return this.#s.queueInfo();
  }

  list(): DownloadsInfo {
    return {
      queue: this.#s.queueInfo(),
      items: this.#s.downloads.visible(this.#s.now() - SUCCEEDED_VISIBLE_MS).map((row) => this.#s.info(row)),
    };
  }

  #rows(refs: readonly AssetRefInfo[]): DownloadRow[] {
    const rows: DownloadRow[] = [];
    for (const ref of refs) {
      const asset = this.#s.deps.assets.get(ref.kind, ref.id);
      const row = asset ? this.#s.downloads.getByAsset(asset.seq) : undefined;
      if (row) rows.push(this.#s.runningOf(row.id)?.row ?? row);
    }
    return rows;
  }

  /** Queues downloads; already downloaded or already queued assets are left as they are. */
  enqueue(refs: readonly AssetRefInfo[], videoMode: 'mp4' | 'hls' = 'mp4'): DownloadInfo[] {
    const out: DownloadRow[] = [];
    const unknown: string[] = [];
    this.#s.command(() =>
      writeTransaction(this.#s.deps.db, () => {
        for (const ref of refs) {
          const asset = this.#s.deps.assets.get(ref.kind, ref.id);
          if (!asset) {
            unknown.push(keyOf(ref));
            continue;
          }
          const existing = this.#s.downloads.getByAsset(asset.seq);
          const active = existing && ['queued', 'preparing', 'downloading', 'paused'].includes(existing.state);
          if (asset.file_state === 'downloaded' || active) {
            if (existing) out.push(existing);
            continue;
          }
          let mode: DownloadMode = 'file';
          if (asset.kind === 'video') mode = videoMode === 'hls' && asset.hls ? 'hls' : 'mp4';
          const url = mode === 'mp4' ? null : asset.url;
          const row = this.#s.downloads.enqueue(
            asset.seq,
            mode,
            initialDest(ref, mode, url, this.#s.deps.area ?? ''),
            url,
            this.#s.now(),
          );
          this.#s.mirror(row);
          out.push(row);
        }
      }),
    );
    if (out.length === 0 && unknown.length > 0) {
      throw new AppError({ code: 'not_found', message: `No such asset in the library: ${unknown[0]}` });
    }
    this.#s.events.changed(out);
    this.#s.pump();
    return out.map((row) => this.#s.info(row));
  }

  pause(refs?: readonly AssetRefInfo[]): DownloadsInfo {
    if (!refs) {
      this.#s.pauseQueue('user');
      return this.list();
    }
    const changed: DownloadRow[] = [];
    for (const row of this.#rows(refs)) {
      const running = this.#s.runningOf(row.id);
      if (running) {
        running.abort('pause-item');
        continue;
      }
      if (row.state === 'queued' || row.state === 'preparing' || row.state === 'downloading') {
        row.state = 'paused';
        this.#s.command(() => this.#s.saveAndMirror(row));
        changed.push(row);
      }
    }
    if (changed.length) this.#s.events.changed(changed);
    return this.list();
  }

  resume(refs?: readonly AssetRefInfo[]): DownloadsInfo {
    const rows = refs ? this.#rows(refs) : this.#s.downloads.inState('paused');
    const changed: DownloadRow[] = [];
    // Written before the pause ends: on a disk still full this fails with the message, still paused.
    this.#s.command(() => {
      if (!refs) this.#s.forgetUserPause();
      for (const row of rows) {
        if (row.state !== 'paused' && !(row.error_code === 'disk_full' && row.state === 'queued')) continue;
        row.state = 'queued';
        row.next_attempt_at = null;
        row.error = null;
        row.error_code = null;
        this.#s.saveAndMirror(row);
        changed.push(row);
      }
    });
    this.#s.events.changed(changed);
    if (refs) this.#s.pump();
    else this.#s.endPause(null, true);
    return this.list();
  }

  /** Used by the library move: no transfers while files change place. */
  async holdForMove(): Promise<() => void> {
    const previous = this.#s.pauseReason;
    this.#s.pauseQueue('moving');
    await this.#s.waitForRunning();
    return () => {
      this.#s.forgetFolders();
      this.#s.endPause(previous === 'moving' ? null : previous, false);
    };
  }

  retry(refs: readonly AssetRefInfo[]): DownloadsInfo {
    const changed: DownloadRow[] = [];
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
      this.#s.command(() => this.#s.saveAndMirror(row));
      changed.push(row);
    }
    this.#s.events.changed(changed);
    this.#s.pump();
    return this.list();
  }

  async cancel(refs: readonly AssetRefInfo[]): Promise<DownloadsInfo> {
    const removed: AssetRefInfo[] = [];
    for (const row of this.#rows(refs)) {
      const running = this.#s.runningOf(row.id);
      if (running) {
        running.abort('cancel');
        await running.done;
      }
      const ref = { kind: row.asset_kind, id: row.asset_id };
      if (row.state !== 'succeeded') {
        await removePartials(this.#s.deps.root(), ref, this.#s.deps.area ?? '');
        writeTransaction(this.#s.deps.db, () => {
          this.#s.downloads.delete(row.id);
          const asset = this.#s.deps.assets.getBySeq(row.asset_seq);
          if (asset && asset.file_state !== 'downloaded')
            this.#s.deps.assets.setLocalFile(row.asset_seq, { fileState: 'remote' });
        });
      } else {
        this.#s.downloads.delete(row.id);
      }
      removed.push(ref);
    }
    this.#s.events.changed([], removed);
    this.#s.pump();
    return this.list();
  }

  /** Nudges the scheduler (concurrency changed, an asset was added). */
  poke(): void {
    this.#s.pump();
  }
}
