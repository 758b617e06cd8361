// When downloads run: the next due rows are claimed and started while a transfer slot is free
// (running-downloads.ts holds them), a timer wakes the queue for scheduled retries and for work
// another process holds, and each step's outcome (download-runner.ts) is applied to its row
// (download-retries.ts), saved and announced. Rows in the database are the truth.
import type { DownloadRow, DownloadsRepo } from '../../db/repos/downloads-repo.ts';
import { HEARTBEAT_MS, type WorkClaims } from '../../db/work-claims.ts';
import type { DownloadCommits } from './download-commits.ts';
import type { DownloadEvents } from './download-events.ts';
import type { DownloadFolders } from './download-folders.ts';
import type { DownloadRows } from './download-rows.ts';
import { applyOutcome, retryDelayOf, type AbortReason } from './download-retries.ts';
import { runDownloadStep, type StepOutcome } from './download-runner.ts';
import { MIN_FREE_BYTES, statfsFreeBytes } from './download-space.ts';
import type { DownloadQueueDeps } from './queue-deps.ts';
import type { QueuePause } from './queue-pause.ts';
import type { Running, RunningDownloads } from './running-downloads.ts';

/** The queue's parts the scheduler works with (download-queue.ts builds them). */
export interface SchedulerParts {
  deps: DownloadQueueDeps;
  downloads: DownloadsRepo;
  rows: DownloadRows;
  claims: WorkClaims;
  pause: QueuePause;
  running: RunningDownloads;
  events: DownloadEvents;
  commits: DownloadCommits;
  folders: DownloadFolders;
  now(): number;
}

export class DownloadScheduler {
  readonly #p: SchedulerParts;
  #started = false;
  #stopped = false;
  #wakeTimer: NodeJS.Timeout | null = null;
  #pumping = false;
  /** Transfers wait for the free-space check of start() and Resume. */
  #spaceChecked = false;

  constructor(parts: SchedulerParts) {
    this.#p = parts;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.checkSpaceThenPump();
  }

  /**
   * A disk still full after a restart (or a Resume before space was freed) is said at once,
   * instead of resuming downloads that would only fill it again.
   */
  checkSpaceThenPump(): void {
    this.#spaceChecked = false;
    const { deps, pause } = this.#p;
    void (deps.freeBytes ?? statfsFreeBytes)(deps.root())
      .catch(() => null)
      .then((free) => {
        this.#spaceChecked = true;
        if (this.#stopped) return;
        if (free !== null && free < MIN_FREE_BYTES && pause.reason === null) pause.pause('disk_full');
        else this.pump();
      });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
    this.#wakeTimer = null;
    this.#p.events.stop();
    this.#p.running.abortAll('stop');
    await this.#p.running.settled();
  }

  /** Starts what is due while a slot is free, and sets the timer for what is due later. */
  pump(): void {
    if (!this.#started || this.#stopped || this.#pumping || !this.#spaceChecked) return;
    const { deps, downloads, running, claims } = this.#p;
    this.#pumping = true;
    try {
      if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
      this.#wakeTimer = null;
      if (this.#p.pause.reason) return;
      const concurrency = deps.concurrency();
      if (running.transfers() < concurrency) {
        const due = downloads.due(this.#p.now(), concurrency + running.size).filter((row) => !running.has(row.id));
        // Claimed first: another process sharing the data folder may have picked the row meanwhile.
        for (const row of due) {
          if (running.transfers() >= concurrency) break;
          if (claims.claim('downloads', row.id)) this.#launch(row);
        }
      }
      const now = this.#p.now();
      let next = downloads.nextWakeAt();
      if (next !== null && next <= now) next = null;
      // Work another process holds is looked at again, to take it over should that process die.
      if (downloads.heldElsewhere() > 0) next = Math.min(next ?? Infinity, now + HEARTBEAT_MS);
      if (next !== null) {
        this.#wakeTimer = setTimeout(() => this.pump(), Math.min(next - now + 5, 2 ** 31 - 1));
        this.#wakeTimer.unref?.();
      }
    } catch (error) {
      this.#p.pause.localFailure(error, 'scheduling downloads failed');
    } finally {
      this.#pumping = false;
    }
  }

  #launch(row: DownloadRow): void {
    this.#p.running.launch(
      row,
      this.#p.now(),
      (running) => this.#runOnce(running),
      () => {
        try {
          // Kept while it waits for its next step (a video being prepared); let go once it ended
          // (a success let go in its commit's transaction).
          if (!['queued', 'preparing', 'downloading', 'succeeded'].includes(row.state))
            this.#p.claims.release('downloads', row.id);
        } catch (error) {
          this.#p.pause.localFailure(error, 'releasing a download failed');
        }
        this.pump();
      },
    );
  }

  async #runOnce(running: Running): Promise<void> {
    const { row, controller } = running;
    const { deps } = this.#p;
    let outcome: StepOutcome;
    try {
      outcome = await runDownloadStep(
        {
          root: deps.root(),
          area: deps.area ?? '',
          client: deps.client,
          signal: controller.signal,
          now: () => this.#p.now(),
          ...(deps.prepareIntervalMs !== undefined ? { prepareIntervalMs: deps.prepareIntervalMs } : {}),
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
          ...(deps.fs ? { fs: deps.fs } : {}),
          ...(deps.limits ? { limits: deps.limits } : {}),
          onProgress: (bytes, _total, hls) =>
            this.#progress(running, bytes, hls?.filesTotal ? hls.filesDone / hls.filesTotal : null),
          onChange: () => {
            if (controller.signal.aborted) return;
            this.#p.rows.saveAndMirror(row);
            this.#p.events.changed([row]);
          },
          onReceived: () => {
            running.transferring = false;
            this.pump();
          },
          folders: this.#p.folders,
          commit: (file) => this.#p.commits.commit(file),
          hasRoom: () => this.#hasRoom(),
        },
        row,
      );
    } catch (error) {
      deps.logError?.('download step failed unexpectedly', error);
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
      this.#p.pause.localFailure(error, 'saving a download step failed');
    }
  }

  /** The library's disk is above the floor (unknown counts as room: the write's ENOSPC still pauses). */
  async #hasRoom(): Promise<boolean> {
    const { deps } = this.#p;
    const free = await (deps.freeBytes ?? statfsFreeBytes)(deps.root()).catch(() => null);
    return free === null || free >= MIN_FREE_BYTES;
  }

  #progress(running: Running, bytes: number, fraction: number | null): void {
    const now = this.#p.now();
    if (this.#p.running.progressed(running, bytes, fraction, now)) this.#p.downloads.saveProgress(running.row, now);
    this.#p.events.moved(running.row.id);
  }

  #apply(running: Running, outcome: StepOutcome): void {
    const { row, controller } = running;
    const { deps, events, rows } = this.#p;
    const reason = controller.signal.aborted ? (controller.signal.reason as AbortReason) : null;
    if (this.#stopped || reason === 'stop' || reason === 'cancel') return;
    const { retryDelayMs } = deps;
    const backoff = retryDelayMs
      ? (_info: unknown, attempts: number) => retryDelayMs(attempts)
      : retryDelayOf(deps.random ?? Math.random);
    const effect = applyOutcome(row, outcome, { now: this.#p.now(), reason, backoff });
    switch (effect.kind) {
      case 'succeeded':
        running.live.fraction = null;
        events.changed([row]);
        deps.onSucceeded?.(row);
        return;
      case 'save':
        this.#p.downloads.save(row, this.#p.now());
        return;
      case 'disk-full':
        // Paused first: saving the row may fail too when the database shares the full disk.
        this.#p.pause.pause('disk_full');
        rows.saveAndMirror(row);
        events.changed([row]);
        return;
      case 'save-and-mirror':
        rows.saveAndMirror(row);
        events.changed([row]);
        return;
    }
  }
}
