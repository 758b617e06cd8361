// Where a poll round's one listing reaches and when the next may be read: the range that covers
// every job in flight (never over the service's 7 days), and what the rounds remember between them.
import { JOB_LIST_RANGE_MS } from '../../contract/service.ts';
import type { JobListGate } from '../api/job-list-gate.ts';
import type { JobRow } from '../db/repos/jobs-repo.ts';
import type { ListingRange } from './round-reads.ts';

/** What the rounds of one engine remember between them (not stored: a restart starts afresh). */
export interface PollMemory {
  /**
   * The account's one gate for GET /jobs (shared with the library sync): `RoundReads` claims it
   * for every listing; the next waits `minListIntervalMs` (`gate.nextAt`).
   */
  gate: JobListGate;
  /** Consecutive failed checks per job (local id), for its own short backoff. */
  failures: Map<number, number>;
}

export function newPollMemory(gate: JobListGate): PollMemory {
  return { gate, failures: new Map() };
}

const timeOf = (row: JobRow): number => row.service_created_at ?? row.submitted_at ?? row.created_at;

/** Which in-flight jobs one listing can cover now, and its range (never over 7 days). */
export function listingPlan(
  inFlight: JobRow[],
  now: number,
  options: { skewMarginMs: number },
): { listable: JobRow[]; range: ListingRange | null } {
  const end = now + options.skewMarginMs;
  const earliestListable = end - JOB_LIST_RANGE_MS.max + 60_000;
  const listable = inFlight.filter((row) => timeOf(row) - options.skewMarginMs >= earliestListable);
  if (listable.length === 0) return { listable, range: null };
  // Never after the end (a row's times may run ahead of this clock); never wider than 7 days.
  const start = Math.min(Math.max(earliestListable, Math.min(...listable.map(timeOf)) - options.skewMarginMs), now);
  return { listable, range: { start, end } };
}
