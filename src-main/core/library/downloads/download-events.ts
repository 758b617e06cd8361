// The queue's change events: state changes announced at once, progress coalesced into one event
// per interval carrying every item that moved, and the live figures only the running process
// knows (transfer speed, an HLS copy's share of files).
import type {
  AssetRefInfo,
  DownloadInfo,
  DownloadQueueInfo,
  DownloadsChangedInfo,
} from '../../../contract/ipc/library.ts';
import type { DownloadRow } from '../../db/repos/downloads-repo.ts';
import type { LiveProgress } from './download-info.ts';

export interface LiveTransfer extends LiveProgress {
  lastBytes: number;
  lastAt: number;
  persistedAt: number;
}

export const newLiveTransfer = (bytes: number, now: number): LiveTransfer => ({
  bytesPerSecond: null,
  fraction: null,
  lastBytes: bytes,
  lastAt: now,
  persistedAt: now,
});

/** Speed as a moving average over windows of at least half a second. */
export function trackSpeed(live: LiveTransfer, bytes: number, fraction: number | null, now: number): void {
  const elapsed = now - live.lastAt;
  if (elapsed >= 500) {
    const rate = ((bytes - live.lastBytes) * 1000) / elapsed;
    live.bytesPerSecond = live.bytesPerSecond === null ? rate : live.bytesPerSecond * 0.6 + rate * 0.4;
    live.lastAt = now;
    live.lastBytes = bytes;
  }
  live.fraction = fraction;
}

export interface DownloadEventsDeps {
  emit(change: DownloadsChangedInfo): void;
  queueInfo(): DownloadQueueInfo;
  info(row: DownloadRow): DownloadInfo;
  /** The current row of a dirty item (the running copy, else the database's). */
  rowOf(id: number): DownloadRow | undefined;
  intervalMs: number;
}

export class DownloadEvents {
  readonly #deps: DownloadEventsDeps;
  readonly #dirty = new Set<number>();
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(deps: DownloadEventsDeps) {
    this.#deps = deps;
  }

  /** Announces rows that changed (and assets whose download is gone) with the queue's state. */
  changed(rows: DownloadRow[], removed: AssetRefInfo[] = []): void {
    for (const row of rows) this.#dirty.delete(row.id);
    this.#deps.emit({ queue: this.#deps.queueInfo(), changed: rows.map((row) => this.#deps.info(row)), removed });
  }

  /** Announces the queue's own state (paused, resumed). */
  queue(): void {
    this.#deps.emit({ queue: this.#deps.queueInfo(), changed: [], removed: [] });
  }

  /** Progress of an item: announced with the others at the end of the interval. */
  moved(id: number): void {
    this.#dirty.add(id);
    if (this.#timer || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const rows = [...this.#dirty].map((id) => this.#deps.rowOf(id)).filter((r) => r !== undefined);
      this.#dirty.clear();
      if (rows.length > 0) this.changed(rows);
    }, this.#deps.intervalMs);
    this.#timer.unref?.();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
