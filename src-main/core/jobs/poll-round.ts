// One poll round over the jobs in flight. With several jobs, ONE `GET /jobs` listing (paged)
// gives every status; `GET /jobs/{id}` is fetched only for jobs that turned terminal (their
// outputs), for jobs the listing cannot cover (older than its 7-day range) and, capped, for jobs
// missing from it. So the requests of a round do not grow with the number of jobs in flight.
// Each request is retried on its own (round-reads.ts): a failure that outlasts its retries costs
// only the jobs it was for, which are checked again soon on their own; the others go on.
import type { ErrorInfo } from '../../contract/errors.ts';
import type { Job, JobSummary } from '../../contract/service.ts';
import { isJobSuccess } from '../../contract/service.ts';
import { MIN_LIST_INTERVAL_MS } from '../api/job-list-gate.ts';
import { parseTime } from '../db/values.ts';
import { classifyFailure, errorInfoOf, fullJitterDelay, ROUND_RETRY, type RoundRetryPolicy } from '../api/backoff.ts';
import type { EngineTime } from '../host/time.ts';
import { outcomeOf, pollIntervalFor } from './job-info.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import { listingPlan, type PollMemory } from './poll-listing.ts';
import { readListing, type RoundReads } from './round-reads.ts';
import { checkJob } from './service-port.ts';

export interface PollRoundOptions {
  /** Below this many listable jobs, single GETs are cheaper than a listing (1 = list from 2 jobs). */
  listFromJobs: number;
  /** Margin around job times for clock skew between this machine and the service. */
  skewMarginMs: number;
  maxListPages: number;
  /** Single GETs for jobs the listing missed or cannot cover, per round (the rest wait a round). */
  maxSinglesPerRound: number;
  /** Jobs too old for the listing are checked at most this often. */
  oldJobIntervalMs: number;
  /** Parallel GET /jobs/{id} for terminal jobs. */
  fetchConcurrency: number;
  /** not_found this many times in a row → 'unknown'. */
  notFoundLimit: number;
  /** No listing sooner than this after the last one (the shortest advised interval): one serves all. */
  minListIntervalMs: number;
  /** How each request of a round is retried on its own. */
  retry: RoundRetryPolicy;
}

export const DEFAULT_POLL_ROUND: PollRoundOptions = {
  listFromJobs: 2,
  skewMarginMs: 15 * 60_000,
  maxListPages: 40,
  maxSinglesPerRound: 5,
  oldJobIntervalMs: 60_000,
  fetchConcurrency: 4,
  notFoundLimit: 3,
  minListIntervalMs: MIN_LIST_INTERVAL_MS,
  retry: ROUND_RETRY,
};

export interface RoundReport {
  /** Requests of the whole pass (reconciliation included), every attempt counted. */
  requests: number;
  /** Of those, repeats of a failed attempt. */
  retries: number;
  /** Reads the service answered. */
  answered: number;
  listPages: number;
  singles: number;
  terminalFetches: number;
  /** Jobs whose status was read this round. */
  polled: number;
  finished: number;
  /**
   * The last failure that outlasted its retries: a 429 with a long Retry-After or an auth failure
   * ended the round; a transient one cost only its own jobs (`unchecked`).
   */
  failure: ErrorInfo | null;
  /** Due jobs left unchecked by a failed request (checked again soon, on their own). */
  unchecked: number;
  /** A listing refused for good (not a transient failure): this round used single GETs instead. */
  listFailure?: ErrorInfo;
}

export interface PollRoundDeps {
  store: JobsRepo;
  reads: RoundReads;
  memory: PollMemory;
  time: EngineTime;
  options: PollRoundOptions;
  /** A listing this pass already read (with reconciliation) covering every listable job: used instead of one of its own. */
  listing?: JobSummary[] | undefined;
  changed(row: JobRow): void;
  onError?(message: string, error: unknown): void;
  /** Terminal record in hand: record outputs or failure (the engine's finisher). */
  finish(row: JobRow, job: Job, summary: JobSummary | null): void;
}

class RoundAborted extends Error {
  readonly info: ErrorInfo;
  constructor(info: ErrorInfo) {
    super(info.message);
    this.info = info;
  }
}

const intervalOf = (row: JobRow, now: number): number =>
  pollIntervalFor(row.kind, row.submitted_at ?? row.created_at, now);

/** A failure that stops the whole round (the loop waits): a rate limit, auth, or the engine stopping. */
function endsRound(info: ErrorInfo, signal: AbortSignal | undefined): boolean {
  const kind = classifyFailure(info);
  return kind === 'rate_limited' || kind === 'auth' || signal?.aborted === true;
}

export async function pollRound(deps: PollRoundDeps): Promise<RoundReport> {
  const { store, time, options, memory, reads } = deps;
  const report: RoundReport = {
    requests: 0,
    retries: 0,
    answered: 0,
    listPages: 0,
    singles: 0,
    terminalFetches: 0,
    polled: 0,
    finished: 0,
    failure: null,
    unchecked: 0,
  };
  const now = time.now();
  const inFlight = store.inFlight();
  const due = inFlight.filter((row) => (row.next_poll_at ?? 0) <= now);
  if (due.length === 0 && !deps.listing) return report;

  const plan = listingPlan(inFlight, now, options);
  const listableIds = new Set(plan.listable.map((row) => row.local_id));
  const dueListable = due.filter((row) => listableIds.has(row.local_id));
  const dueOld = due.filter((row) => !listableIds.has(row.local_id));
  /** Due jobs a failed request left unchecked. */
  const unchecked: JobRow[] = [];

  try {
    const singles: JobRow[] = [];
    const terminal: { row: JobRow; summary: JobSummary }[] = [];
    let summaries: JobSummary[] | null = deps.listing ?? null;
    if (!summaries && dueListable.length > 0 && plan.listable.length >= options.listFromJobs) {
      const allowedAt = memory.gate.nextAt(options.minListIntervalMs);
      if (now < allowedAt) {
        // A listing was read moments ago (it updated every job it listed): these wait for the next.
        for (const row of dueListable) store.update(row.local_id, { nextPollAt: allowedAt }, now);
      } else {
        const wanted = new Set(plan.listable.map((row) => row.job_id!));
        try {
          const read = await readListing(
            reads,
            plan.range!,
            (sofar) => sofar.filter((summary) => wanted.has(summary.jobId)).length >= wanted.size,
            options.maxListPages,
          );
          report.listPages += read.pages;
          summaries = read.summaries;
        } catch (error) {
          const info = errorInfoOf(error);
          if (endsRound(info, reads.signal)) throw new RoundAborted(info);
          if (classifyFailure(info) === 'permanent') {
            // The listing refused this query (it should not): the jobs fall back to single GETs, bounded per round.
            report.listFailure = info;
            singles.push(...dueListable);
          } else {
            report.failure = info;
            unchecked.push(...dueListable);
          }
        }
      }
    } else if (!summaries) {
      singles.push(...dueListable);
    }
    if (summaries) {
      const found = new Map<string, JobSummary>();
      for (const summary of summaries) found.set(summary.jobId, summary);
      const polledAt = time.now();
      for (const row of plan.listable) {
        const summary = found.get(row.job_id!);
        if (!summary) continue;
        const outcome = outcomeOf(summary.status);
        store.noteServiceCreatedAt(row.local_id, parseTime(summary.createdAt));
        if (outcome.terminal) terminal.push({ row, summary });
        else applyActive(deps, row, summary.status, outcome.state, polledAt);
        report.polled += 1;
      }
      singles.push(...dueListable.filter((row) => !found.has(row.job_id!)));
    }
    singles.push(...dueOld);

    // Single GETs: bounded per round so a systematic gap in the listing can never become a storm;
    // the jobs left over wait one interval and take their turn (longest waiting first).
    singles.sort((a, b) => (a.next_poll_at ?? 0) - (b.next_poll_at ?? 0));
    const allowed = singles.slice(0, options.maxSinglesPerRound);
    for (const row of singles.slice(options.maxSinglesPerRound)) {
      store.update(row.local_id, { nextPollAt: now + intervalOf(row, now) }, now);
    }
    for (const row of allowed) {
      report.singles += 1;
      const job = await fetchJob(deps, report, row, unchecked);
      if (!job) continue;
      report.polled += 1;
      const outcome = outcomeOf(job.status);
      if (outcome.terminal) {
        if (finishOrWait(deps, row, job, null)) report.finished += 1;
      } else {
        const at = time.now();
        applyActive(
          deps,
          row,
          job.status,
          outcome.state,
          at,
          listableIds.has(row.local_id) ? undefined : Math.max(options.oldJobIntervalMs, intervalOf(row, at)),
        );
      }
    }

    await eachLimited(terminal, options.fetchConcurrency, async ({ row, summary }) => {
      const job = await fetchJob(deps, report, row, due.includes(row) ? unchecked : null, true);
      if (!job) return;
      const outcome = outcomeOf(job.status);
      if (outcome.terminal) {
        if (finishOrWait(deps, row, job, summary)) report.finished += 1;
      } else {
        // The listing ran ahead of the record: try again next round.
        applyActive(deps, row, job.status, outcome.state, time.now());
      }
    });
  } catch (error) {
    if (!(error instanceof RoundAborted)) throw error;
    report.failure = error.info;
  }
  report.unchecked = unchecked.length;
  // When the service answered something this pass, the jobs a failed request left unchecked are
  // checked again soon on their own (jittered, longer for a job that keeps failing). When it
  // answered nothing, they stay due and the loop's backoff decides when to try again.
  if (unchecked.length > 0 && reads.tally.answered > 0 && !reads.signal?.aborted) {
    const at = time.now();
    for (const row of unchecked) {
      const failures = (memory.failures.get(row.local_id) ?? 0) + 1;
      memory.failures.set(row.local_id, failures);
      store.update(row.local_id, { nextPollAt: at + fullJitterDelay(failures, time.random) }, at);
    }
  }
  return report;
}

/**
 * GET /jobs/{id} (or the record this pass already read). A failure that outlasts its retries:
 * a rate limit or auth ends the round; a transient one leaves this job unchecked (when it was
 * due); a not_found is counted on the job and, repeated, makes it 'unknown'.
 */
async function fetchJob(
  deps: PollRoundDeps,
  report: RoundReport,
  row: JobRow,
  unchecked: JobRow[] | null,
  terminal = false,
): Promise<Job | null> {
  const { store, time, options, reads } = deps;
  try {
    const held = reads.records.get(row.job_id!);
    if (held) return checkJob(held, row.job_id!);
    if (terminal) report.terminalFetches += 1;
    return checkJob(await reads.getJob(row.job_id!), row.job_id!);
  } catch (error) {
    const info = errorInfoOf(error);
    const kind = classifyFailure(info);
    // Stopping (abort) is not the job's fault: leave it exactly as it was.
    if (endsRound(info, reads.signal)) throw new RoundAborted(info);
    if (kind === 'transient') {
      report.failure = info;
      unchecked?.push(row);
      return null;
    }
    const now = time.now();
    const attempts = row.attempts + 1;
    if (kind === 'not_found' && attempts >= options.notFoundLimit) {
      store.update(
        row.local_id,
        {
          state: 'unknown',
          attempts,
          error: 'The service no longer knows this job; its outcome is unknown.',
          nextPollAt: null,
        },
        now,
      );
      deps.changed(store.mustGet(row.local_id));
    } else {
      store.update(
        row.local_id,
        { attempts, nextPollAt: now + fullJitterDelay(attempts, time.random) + intervalOf(row, now) },
        now,
      );
    }
    return null;
  }
}

/**
 * A success whose record lists no outputs is most likely a record caught half-written: ask again
 * later (backing off) a few times before accepting it as a success without outputs.
 */
function finishOrWait(deps: PollRoundDeps, row: JobRow, job: Job, summary: JobSummary | null): boolean {
  const { store, time, options } = deps;
  const outputs = row.kind === 'video' ? job.videos : row.kind === 'training' ? [] : job.images;
  const current = store.mustGet(row.local_id);
  if (
    outcomeOf(job.status).terminal &&
    isJobSuccess(job.status) &&
    outputs === undefined &&
    current.attempts + 1 < options.notFoundLimit
  ) {
    const now = time.now();
    const attempts = current.attempts + 1;
    store.update(
      row.local_id,
      {
        attempts,
        lastPolledAt: now,
        nextPollAt: now + fullJitterDelay(attempts, time.random) + intervalOf(row, now),
      },
      now,
    );
    return false;
  }
  try {
    deps.finish(current, job, summary);
    deps.memory.failures.delete(row.local_id);
    return true;
  } catch (error) {
    // Saving this job's outputs failed here (not on the service): retry it alone, a few times,
    // without holding up the other jobs of the round; then say so instead of retrying forever.
    deps.onError?.('Recording a finished job failed', error);
    const now = time.now();
    const attempts = current.attempts + 1;
    if (attempts >= MAX_FINISH_ATTEMPTS) {
      const message = error instanceof Error ? error.message : String(error);
      store.update(
        row.local_id,
        {
          state: 'failed',
          attempts,
          nextPollAt: null,
          finishedAt: now,
          error: `Atelier could not record this job's outcome: ${message}`,
        },
        now,
      );
      deps.changed(store.mustGet(row.local_id));
    } else {
      store.update(
        row.local_id,
        { attempts, nextPollAt: now + fullJitterDelay(attempts, time.random) + intervalOf(row, now) },
        now,
      );
    }
    return false;
  }
}

const MAX_FINISH_ATTEMPTS = 5;

function applyActive(
  deps: PollRoundDeps,
  row: JobRow,
  status: string,
  state: 'queued' | 'running',
  now: number,
  interval = intervalOf(row, now),
): void {
  const changed = row.state !== state || row.service_status !== status || row.error !== null;
  deps.memory.failures.delete(row.local_id);
  deps.store.update(
    row.local_id,
    { state, serviceStatus: status, error: null, attempts: 0, lastPolledAt: now, nextPollAt: now + interval },
    now,
  );
  if (changed) deps.changed(deps.store.mustGet(row.local_id));
}

async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && failure === null) {
      const item = items[next]!;
      next += 1;
      try {
        await work(item);
      } catch (error) {
        failure ??= error;
      }
    }
  });
  await Promise.all(lanes);
  if (failure !== null) throw failure;
}
