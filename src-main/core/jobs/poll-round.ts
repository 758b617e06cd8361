// One poll round over the jobs in flight. With several jobs, ONE `GET /jobs` listing (paged)
// gives every status; `GET /jobs/{id}` is fetched only for jobs that turned terminal (their
// outputs), for jobs the listing cannot cover (older than its 7-day range) and, capped, for jobs
// missing from it. So the requests of a round do not grow with the number of jobs in flight.
import type { ErrorInfo } from '../../contract/errors.ts';
import type { Job, JobSummary, JobsPage } from '../../contract/service.ts';
import { isJobSuccess, JOB_LIST_RANGE_MS } from '../../contract/service.ts';
import { parseTime } from '../db/values.ts';
import { classifyFailure, errorInfoOf, fullJitterDelay } from '../api/backoff.ts';
import type { EngineTime } from '../host/time.ts';
import { outcomeOf, pollIntervalFor } from './job-info.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import { checkJob, checkJobsPage, type JobsService } from './service-port.ts';

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
}

export const DEFAULT_POLL_ROUND: PollRoundOptions = {
  listFromJobs: 2,
  skewMarginMs: 15 * 60_000,
  maxListPages: 40,
  maxSinglesPerRound: 5,
  oldJobIntervalMs: 60_000,
  fetchConcurrency: 4,
  notFoundLimit: 3,
};

export interface RoundReport {
  requests: number;
  listPages: number;
  singles: number;
  terminalFetches: number;
  /** Jobs whose status was read this round. */
  polled: number;
  finished: number;
  /** The failure that ended the round early (the scheduler backs off on it). */
  failure: ErrorInfo | null;
  /** A listing refused for good (not a transient failure): this round used single GETs instead. */
  listFailure?: ErrorInfo;
}

export interface PollRoundDeps {
  store: JobsRepo;
  service: JobsService;
  time: EngineTime;
  options: PollRoundOptions;
  signal?: AbortSignal;
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

const iso = (ms: number): string => new Date(ms).toISOString();
const timeOf = (row: JobRow): number => row.service_created_at ?? row.submitted_at ?? row.created_at;
const intervalOf = (row: JobRow, now: number): number =>
  pollIntervalFor(row.kind, row.submitted_at ?? row.created_at, now);

export async function pollRound(deps: PollRoundDeps): Promise<RoundReport> {
  const { store, time, options } = deps;
  const report: RoundReport = {
    requests: 0,
    listPages: 0,
    singles: 0,
    terminalFetches: 0,
    polled: 0,
    finished: 0,
    failure: null,
  };
  const now = time.now();
  const inFlight = store.inFlight();
  const due = inFlight.filter((row) => (row.next_poll_at ?? 0) <= now);
  if (due.length === 0) return report;

  const end = now + options.skewMarginMs;
  const earliestListable = end - JOB_LIST_RANGE_MS.max + 60_000;
  const listable = inFlight.filter((row) => timeOf(row) - options.skewMarginMs >= earliestListable);
  const listableIds = new Set(listable.map((row) => row.local_id));
  const dueListable = due.filter((row) => listableIds.has(row.local_id));
  const dueOld = due.filter((row) => !listableIds.has(row.local_id));

  try {
    const singles: JobRow[] = [];
    const terminal: { row: JobRow; summary: JobSummary }[] = [];
    if (dueListable.length > 0 && listable.length >= options.listFromJobs) {
      // Never after the end (a row's times may run ahead of this clock); never wider than 7 days.
      const start = Math.min(Math.max(earliestListable, Math.min(...listable.map(timeOf)) - options.skewMarginMs), now);
      const found = await listStatuses(deps, report, listable, start, end);
      const polledAt = time.now();
      for (const row of listable) {
        const summary = found.get(row.job_id!);
        if (!summary) continue;
        const outcome = outcomeOf(summary.status);
        store.noteServiceCreatedAt(row.local_id, parseTime(summary.createdAt));
        if (outcome.terminal) terminal.push({ row, summary });
        else applyActive(deps, row, summary.status, outcome.state, polledAt);
        report.polled += 1;
      }
      singles.push(...dueListable.filter((row) => !found.has(row.job_id!)));
    } else {
      singles.push(...dueListable);
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
      const job = await fetchJob(deps, report, row);
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
      report.terminalFetches += 1;
      const job = await fetchJob(deps, report, row);
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
  return report;
}

/** Pages through GET /jobs until every listable job was seen or the listing ends. */
async function listStatuses(
  deps: PollRoundDeps,
  report: RoundReport,
  listable: JobRow[],
  start: number,
  end: number,
): Promise<Map<string, JobSummary>> {
  const wanted = new Set(listable.map((row) => row.job_id!));
  const found = new Map<string, JobSummary>();
  const pages = deps.service.jobPages({ start: iso(start), end: iso(end) }, deps.signal)[Symbol.asyncIterator]();
  try {
    for (let page = 0; page < deps.options.maxListPages; page += 1) {
      let step: IteratorResult<JobsPage>;
      try {
        report.requests += 1;
        report.listPages += 1;
        step = await pages.next();
      } catch (error) {
        const info = errorInfoOf(error);
        const kind = classifyFailure(info);
        if (kind === 'rate_limited' || kind === 'transient' || kind === 'auth' || deps.signal?.aborted)
          throw new RoundAborted(info);
        // The listing refused this query (it should not): the jobs fall back to single GETs, bounded per round.
        report.listFailure = info;
        break;
      }
      if (step.done) {
        // The last page said there is no next one: no request was made for this step.
        report.requests -= 1;
        report.listPages -= 1;
        break;
      }
      let answer: JobsPage;
      try {
        answer = checkJobsPage(step.value);
      } catch (error) {
        throw new RoundAborted(errorInfoOf(error));
      }
      for (const summary of answer.jobs) if (wanted.has(summary.jobId)) found.set(summary.jobId, summary);
      if (!answer.nextPageToken || found.size === wanted.size) break;
    }
  } finally {
    // Stops the page iterator without fetching more.
    await pages.return?.().catch(() => {});
  }
  return found;
}

/**
 * GET /jobs/{id}. A retryable failure (429, 5xx, network, malformed) ends the round: the scheduler
 * backs off for all. A not_found is counted on the job and, repeated, makes it 'unknown'.
 */
async function fetchJob(deps: PollRoundDeps, report: RoundReport, row: JobRow): Promise<Job | null> {
  const { store, time, options } = deps;
  try {
    report.requests += 1;
    return checkJob(await deps.service.getJob(row.job_id!, deps.signal), row.job_id!);
  } catch (error) {
    const info = errorInfoOf(error);
    const kind = classifyFailure(info);
    // Stopping (abort) is not the job's fault: leave it exactly as it was.
    if (kind === 'rate_limited' || kind === 'transient' || kind === 'auth' || deps.signal?.aborted)
      throw new RoundAborted(info);
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
