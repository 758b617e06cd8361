// The downloads this process runs now: one entry per row with a step in flight, its abort
// switch, its live figures (speed, an HLS copy's share), and whether it still holds a transfer
// slot (a file whose body is all in frees its slot while it is fsynced, renamed and committed).
import type { DownloadRow } from '../../db/repos/downloads-repo.ts';
import { newLiveTransfer, trackSpeed, type LiveTransfer } from './download-events.ts';
import type { AbortReason } from './download-retries.ts';

/** Bytes so far are written to the row this often while a transfer runs (a restart resumes anyway). */
const BYTES_PERSIST_INTERVAL_MS = 1_000;

export interface Running {
  readonly controller: AbortController;
  done: Promise<void>;
  /** The running copy of the row: the one its step updates. */
  readonly row: DownloadRow;
  readonly live: LiveTransfer;
  /** False once the body is in: fsync, rename and commit take no slot. */
  transferring: boolean;
}

export class RunningDownloads {
  readonly #running = new Map<number, Running>();

  /** Starts `run` for `row`; `settle` runs once it ended, after the entry is gone. */
  launch(row: DownloadRow, now: number, run: (running: Running) => Promise<void>, settle: () => void): void {
    const running: Running = {
      controller: new AbortController(),
      row,
      live: newLiveTransfer(row.bytes_done, now),
      done: Promise.resolve(),
      transferring: true,
    };
    this.#running.set(row.id, running);
    running.done = run(running).finally(() => {
      this.#running.delete(row.id);
      settle();
    });
  }

  of(id: number): Running | undefined {
    return this.#running.get(id);
  }

  has(id: number): boolean {
    return this.#running.has(id);
  }

  get size(): number {
    return this.#running.size;
  }

  ids(): number[] {
    return [...this.#running.keys()];
  }

  /** Steps still moving bytes (the ones that hold a slot). */
  transfers(): number {
    let n = 0;
    for (const r of this.#running.values()) if (r.transferring) n += 1;
    return n;
  }

  abortAll(reason: AbortReason): void {
    for (const r of this.#running.values()) r.controller.abort(reason);
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
  }

  /** Notes bytes so far; true when they are due to be written to the row. */
  progressed(running: Running, bytes: number, fraction: number | null, now: number): boolean {
    trackSpeed(running.live, bytes, fraction, now);
    if (now - running.live.persistedAt < BYTES_PERSIST_INTERVAL_MS) return false;
    running.live.persistedAt = now;
    return true;
  }
}
