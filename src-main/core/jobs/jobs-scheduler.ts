// The work of the jobs loop: when it is due, first check submissions whose answer was lost
// (reconciliation), then one batched poll round. The loop (wall-clock-loop.ts) decides when.
// One listing serves both: when reconciliation is due, the pass reads GET /jobs once over a range
// that covers the interrupted submissions and every job in flight, and hands it to each. Every
// request of a pass goes through one RoundReads: retried on its own, counted, its records reused.
import type { JobSummary } from '../../contract/service.ts';
import { JOB_LIST_RANGE_MS } from '../../contract/service.ts';
import { classifyFailure, errorInfoOf, fullJitterDelay } from '../api/backoff.ts';
import type { EngineTime } from '../host/time.ts';
import type { FinishNotifier } from './finish-notifier.ts';
import type { FinishJob } from './job-finisher.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import { JobListGate } from '../api/job-list-gate.ts';
import { listingPlan, newPollMemory, type PollMemory } from './poll-listing.ts';
import { pollRound, type PollRoundOptions, type RoundReport } from './poll-round.ts';
import { RECONCILE_WINDOW, reconcileSubmissions, sentAtOf, UNKNOWN_MESSAGE } from './reconcile.ts';
import { oldestCreatedAt, readListing, RoundReads, type ListingRange } from './round-reads.ts';
import type { JobsService } from './service-port.ts';
import type { LoopWork } from './wall-clock-loop.ts';

/** Reconciliation reads at most this many pages of the shared listing (as it does alone). */
const RECONCILE_MAX_PAGES = 20;

export interface JobsSchedulerDeps {
  store: JobsRepo;
  service: JobsService;
  time: EngineTime;
  /** Aborted when the engine stops. */
  signal(): AbortSignal;
  round: PollRoundOptions;
  /** The account's one gate for GET /jobs, shared with the library sync (default: this engine's own). */
  listGate?: JobListGate | undefined;
  finishNotifier: FinishNotifier;
  finish: FinishJob;
  changed(row: JobRow): void;
  /** The queue counts, said again after every pass. */
  counts(): void;
  /** Rows whose POST is still under way in this process: reconciliation leaves them alone. */
  isPosting(localId: number): boolean;
  /** Sends again a row whose request the job list shows never arrived (the outbox's resend). */
  resend?(row: JobRow): void;
  warn(message: string, error?: unknown): void;
  /** Every poll round's report that made requests (metrics, tests). */
  onRound?: ((report: RoundReport) => void) | undefined;
}

export class JobsScheduler implements LoopWork {
  readonly #deps: JobsSchedulerDeps;
  /** When interrupted submissions are next checked; null = none waiting. */
  #reconcileAt: number | null = null;
  /** Consecutive reconciliations that failed on a transient error (their own short backoff). */
  #reconcileFailures = 0;
  readonly #memory: PollMemory;

  constructor(deps: JobsSchedulerDeps) {
    this.#deps = deps;
    this.#memory = newPollMemory(deps.listGate ?? new JobListGate(deps.time));
  }

  /** Checks interrupted submissions at `at` at the latest (a lost POST answer, or a restart). */
  reconcileBy(at: number): void {
    this.#reconcileAt = this.#reconcileAt === null ? at : Math.min(this.#reconcileAt, at);
  }

  nextDueAt(): number | null {
    const next = this.#deps.store.nextPollAt();
    if (next === null) return this.#reconcileAt;
    return this.#reconcileAt === null ? next : Math.min(next, this.#reconcileAt);
  }

  async run(): Promise<Awaited<ReturnType<LoopWork['run']>>> {
    const { store, time } = this.#deps;
    const release = this.#deps.finishNotifier.hold();
    // Every listing of the pass goes through these reads, which note it in the memory (the one gate).
    const reads = new RoundReads(
      this.#deps.service,
      time,
      this.#deps.signal(),
      this.#deps.round.retry,
      this.#memory.gate,
    );
    const outcome = (report: { failure: RoundReport['failure']; finished?: number }) => ({
      requests: reads.tally.requests,
      failure: report.failure,
      progressed: reads.tally.answered > 0 || (report.finished ?? 0) > 0,
    });
    try {
      let listing: JobSummary[] | undefined;
      let sharedPages = 0;
      if (this.#reconcileAt !== null && this.#reconcileAt <= time.now()) {
        const rows = store.submitting().filter((row) => !this.#deps.isPosting(row.local_id));
        const listAllowedAt = this.#memory.gate.nextAt(this.#deps.round.minListIntervalMs);
        if (rows.length === 0) this.#reconcileAt = null;
        // A listing was read moments ago: reconciliation waits for the next one, which serves both.
        else if (time.now() < listAllowedAt) this.#reconcileAt = listAllowedAt;
        else {
          try {
            const range = this.#sharedRange(rows);
            if (range) ({ summaries: listing, pages: sharedPages } = await this.#readShared(reads, rows, range));
            this.#reconcileAt = (
              await reconcileSubmissions(
                rows,
                {
                  store,
                  service: reads.service(),
                  time,
                  signal: this.#deps.signal(),
                  changed: this.#deps.changed,
                  // Every attempt is counted by the reads themselves.
                  counted: () => {},
                  isPosting: this.#deps.isPosting,
                  ...(this.#deps.resend ? { resend: this.#deps.resend } : {}),
                },
                RECONCILE_WINDOW,
                listing,
              )
            ).retryAt;
            this.#reconcileFailures = 0;
          } catch (error) {
            const info = errorInfoOf(error);
            const kind = classifyFailure(info);
            if (kind === 'rate_limited' || kind === 'auth' || this.#deps.signal().aborted)
              return outcome({ failure: info });
            if (kind === 'transient') {
              // Its reads outlasted their retries: check the submissions again soon; poll meanwhile.
              this.#reconcileFailures += 1;
              this.#reconcileAt = time.now() + fullJitterDelay(this.#reconcileFailures, time.random);
            } else {
              // The listing refuses to answer this for good: say "unknown" for rows whose window
              // closed, check the rest again later, and go on polling the other jobs meanwhile.
              this.#deps.warn('Checking interrupted submissions failed', error);
              this.#reconcileAt = this.#giveUpOnSubmissions(rows);
            }
          }
        }
      }
      const report = await pollRound({
        onError: (message, error) => this.#deps.warn(message, error),
        store,
        reads,
        memory: this.#memory,
        listing,
        time,
        options: this.#deps.round,
        changed: this.#deps.changed,
        finish: this.#deps.finish,
      });
      report.requests = reads.tally.requests;
      report.listPages += sharedPages;
      report.retries = reads.tally.retries;
      report.answered = reads.tally.answered;
      if (report.requests > 0) this.#deps.onRound?.(report);
      return outcome(report);
    } finally {
      release();
      this.#deps.counts();
    }
  }

  /**
   * One range for reconciliation and the poll round: the submissions' windows and the listing of
   * the jobs in flight. Null when that would pass the service's 7-day limit (rows far apart in
   * time): reconciliation then lists on its own.
   */
  #sharedRange(rows: JobRow[]): ListingRange | null {
    const now = this.#deps.time.now();
    const first = Math.min(...rows.map((row) => sentAtOf(row)));
    const last = Math.max(...rows.map((row) => sentAtOf(row)));
    const poll = listingPlan(this.#deps.store.inFlight(), now, this.#deps.round).range;
    const start = Math.min(first - RECONCILE_WINDOW.beforeMs, poll?.start ?? Infinity);
    const end = Math.max(Math.min(last + RECONCILE_WINDOW.afterMs, now), poll?.end ?? -Infinity, start + 1);
    return end - start <= JOB_LIST_RANGE_MS.max - 60_000 ? { start, end } : null;
  }

  /** Reads the shared listing: every job in flight found and the submissions' windows passed. */
  async #readShared(
    reads: RoundReads,
    rows: JobRow[],
    range: ListingRange,
  ): Promise<{ summaries: JobSummary[]; pages: number }> {
    const wanted = new Set(this.#deps.store.inFlight().map((row) => row.job_id!));
    const windowsStart = Math.min(...rows.map((row) => sentAtOf(row))) - RECONCILE_WINDOW.beforeMs;
    return readListing(
      reads,
      range,
      (sofar) => {
        const oldest = oldestCreatedAt(sofar);
        return (
          oldest !== null &&
          oldest < windowsStart &&
          sofar.filter((summary) => wanted.has(summary.jobId)).length >= wanted.size
        );
      },
      Math.max(RECONCILE_MAX_PAGES, this.#deps.round.maxListPages),
    );
  }

  #giveUpOnSubmissions(rows: JobRow[]): number | null {
    const { store, time } = this.#deps;
    const now = time.now();
    let retry: number | null = null;
    for (const row of rows) {
      if (row.resend_at !== null) continue; // clearly not taken: the outbox sends it again
      if (now >= sentAtOf(row) + RECONCILE_WINDOW.afterMs) {
        store.update(row.local_id, { state: 'unknown', error: UNKNOWN_MESSAGE, nextPollAt: null }, now);
        this.#deps.changed(store.mustGet(row.local_id));
      } else {
        retry = now + 60_000;
      }
    }
    return retry;
  }
}
