// The work of the jobs loop: when it is due, first check submissions whose answer was lost
// (reconciliation), then one batched poll round. The loop (wall-clock-loop.ts) decides when.
import { classifyFailure, errorInfoOf } from '../api/backoff.ts';
import type { EngineTime } from '../host/time.ts';
import type { FinishNotifier } from './finish-notifier.ts';
import type { FinishJob } from './job-finisher.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import { pollRound, type PollRoundOptions, type RoundReport } from './poll-round.ts';
import { RECONCILE_WINDOW, reconcileSubmissions, sentAtOf, UNKNOWN_MESSAGE } from './reconcile.ts';
import type { JobsService } from './service-port.ts';
import type { LoopWork } from './wall-clock-loop.ts';

export interface JobsSchedulerDeps {
  store: JobsRepo;
  service: JobsService;
  time: EngineTime;
  /** Aborted when the engine stops. */
  signal(): AbortSignal;
  round: PollRoundOptions;
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

  constructor(deps: JobsSchedulerDeps) {
    this.#deps = deps;
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
    const { store, service, time } = this.#deps;
    const release = this.#deps.finishNotifier.hold();
    let requests = 0;
    try {
      if (this.#reconcileAt !== null && this.#reconcileAt <= time.now()) {
        const rows = store.submitting().filter((row) => !this.#deps.isPosting(row.local_id));
        try {
          this.#reconcileAt =
            rows.length === 0
              ? null
              : (
                  await reconcileSubmissions(rows, {
                    store,
                    service,
                    time,
                    signal: this.#deps.signal(),
                    changed: this.#deps.changed,
                    counted: () => void (requests += 1),
                    isPosting: this.#deps.isPosting,
                    ...(this.#deps.resend ? { resend: this.#deps.resend } : {}),
                  })
                ).retryAt;
        } catch (error) {
          const info = errorInfoOf(error);
          const kind = classifyFailure(info);
          if (kind === 'transient' || kind === 'rate_limited' || kind === 'auth') return { requests, failure: info };
          // The listing refuses to answer this for good: say "unknown" for rows whose window
          // closed, check the rest again later, and go on polling the other jobs meanwhile.
          this.#deps.warn('Checking interrupted submissions failed', error);
          this.#reconcileAt = this.#giveUpOnSubmissions(rows);
        }
      }
      const report = await pollRound({
        onError: (message, error) => this.#deps.warn(message, error),
        store,
        service,
        time,
        signal: this.#deps.signal(),
        options: this.#deps.round,
        changed: this.#deps.changed,
        finish: this.#deps.finish,
      });
      report.requests += requests;
      if (report.requests > 0) this.#deps.onRound?.(report);
      return { requests: report.requests, failure: report.failure };
    } finally {
      release();
      this.#deps.counts();
    }
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
