// The advised interval between two reads of the job list (GET /jobs), kept per account: the jobs
// engine's passes (reconciliation, poll rounds) and the library sync's job scan all list through
// one gate, so the list is never read twice within the shortest advised poll interval (5 s),
// whoever asks. A read is claimed when its first page is asked for (so two askers cannot both go),
// noted again when that page answers, and given back if it never did (a failed read is not one).
// While a first page is in flight the gate stays shut: a read slowed by its own retries (a 429's
// Retry-After, a backoff after a 503) must not let a second reader in, or the service sees two
// listings moments apart when the slow one finally lands. A read that says nothing for
// `IN_FLIGHT_LIMIT_MS` no longer holds the gate (a caller that never settles cannot stop polling).
import { POLL_INTERVALS_MS } from '../../contract/service.ts';
import { sleepOn, type EngineTime } from '../host/time.ts';

/** The shortest advised poll interval: no second listing within it. */
export const MIN_LIST_INTERVAL_MS = Math.min(
  POLL_INTERVALS_MS.imageJob,
  POLL_INTERVALS_MS.upscaleJob,
  POLL_INTERVALS_MS.videoJob,
);

/** How long an unsettled first page holds the gate at most. */
export const IN_FLIGHT_LIMIT_MS = 120_000;

/** One listing's hold on the gate: `answered` when its first page came, `failed` when it never did. */
export interface JobListTurn {
  answered(): void;
  failed(): void;
}

export class JobListGate {
  readonly #time: EngineTime;
  #listedAt: number | null = null;
  /** When each first page still in flight was claimed. */
  readonly #inFlight = new Set<{ claimedAt: number }>();

  constructor(time: EngineTime) {
    this.#time = time;
  }

  /** When the job list was last read (or a read of it began), epoch ms; null = not yet. */
  get listedAt(): number | null {
    return this.#listedAt;
  }

  /** When the next listing may be asked for (while one is in flight: an interval from now, asked again then). */
  nextAt(minIntervalMs = MIN_LIST_INTERVAL_MS): number {
    const now = this.#time.now();
    for (const read of this.#inFlight) {
      if (now - read.claimedAt < IN_FLIGHT_LIMIT_MS) return Math.max(this.#listedAt ?? -Infinity, now) + minIntervalMs;
      this.#inFlight.delete(read);
    }
    return this.#listedAt === null ? -Infinity : this.#listedAt + minIntervalMs;
  }

  /** Claims a listing now (the caller checked `nextAt`, or does not wait: see `take`). */
  claim(): JobListTurn {
    const before = this.#listedAt;
    const claimed = this.#time.now();
    this.#listedAt = claimed;
    const flight = { claimedAt: claimed };
    this.#inFlight.add(flight);
    let read = false;
    return {
      answered: () => {
        read = true;
        this.#inFlight.delete(flight);
        this.#listedAt = Math.max(this.#listedAt ?? claimed, this.#time.now());
      },
      failed: () => {
        this.#inFlight.delete(flight);
        if (!read && this.#listedAt === claimed) this.#listedAt = before;
      },
    };
  }

  /** Waits for the gate to allow a listing (at most one interval), then claims it. */
  async take(signal?: AbortSignal, minIntervalMs = MIN_LIST_INTERVAL_MS): Promise<JobListTurn> {
    for (;;) {
      const wait = this.nextAt(minIntervalMs) - this.#time.now();
      if (wait <= 0) return this.claim();
      await sleepOn(this.#time, wait, signal);
    }
  }
}
