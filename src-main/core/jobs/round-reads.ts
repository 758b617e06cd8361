// The reads of one pass of the jobs loop (reconciliation and the poll round), each retried on its
// own: GET /jobs pages and GET /jobs/{id} are idempotent, so a 503, a reset or a short 429 costs a
// short jittered wait and a repeat of that one request, not the round (`api/backoff.ts`
// `shortRetryDelay`, the one classifier of background failures). Every attempt is counted, and the
// job records read in the pass are kept so a later part of it does not ask again.
import type { Job, JobSummary, JobsPage } from '../../contract/service.ts';
import { errorInfoOf, ROUND_RETRY, shortRetryDelay, type RoundRetryPolicy } from '../api/backoff.ts';
import { parseTime } from '../db/values.ts';
import { sleepOn, type EngineTime } from '../host/time.ts';
import type { JobListGate } from '../api/job-list-gate.ts';
import { checkJobsPage, malformed, type JobRange, type JobsService } from './service-port.ts';

export interface ReadTally {
  /** Requests sent, every attempt counted (what the service saw). */
  requests: number;
  /** Of those, repeats after a failed attempt. */
  retries: number;
  /** Reads the service answered (a job it does not know included): it is reachable and working. */
  answered: number;
}

export class RoundReads {
  readonly tally: ReadTally = { requests: 0, retries: 0, answered: 0 };
  /** Job records read in this pass, by job id (as the service sent them). */
  readonly records = new Map<string, Job>();
  readonly #service: JobsService;
  readonly #time: EngineTime;
  readonly #signal: AbortSignal | undefined;
  readonly #policy: RoundRetryPolicy;
  /** The account's gate for GET /jobs: every listing of the pass, whoever asks, claims it. */
  readonly #gate: JobListGate | undefined;

  constructor(
    service: JobsService,
    time: EngineTime,
    signal?: AbortSignal,
    policy: RoundRetryPolicy = ROUND_RETRY,
    gate?: JobListGate,
  ) {
    this.#service = service;
    this.#time = time;
    this.#signal = signal;
    this.#policy = policy;
    this.#gate = gate;
  }

  get signal(): AbortSignal | undefined {
    return this.#signal;
  }

  /** GET /jobs/{id}, retried on its own; the record is kept for the rest of the pass. */
  async getJob(jobId: string): Promise<Job> {
    const job = await this.#read(() => this.#service.getJob(jobId, this.#signal));
    this.records.set(jobId, job);
    return job;
  }

  /** One GET /jobs page of a range (the first, or the one `pageToken` names), retried on its own. */
  async jobPage(range: JobRange, pageToken = ''): Promise<JobsPage> {
    // A first page starts a listing: it holds the gate from now, and from its answer (a read that
    // never answered gives it back), whatever becomes of the pages after it.
    const turn = pageToken ? null : (this.#gate?.claim() ?? null);
    const read = this.#read(async () => {
      const pages = this.#service.jobPages({ ...range, ...(pageToken ? { pageToken } : {}) }, this.#signal);
      const iterator = pages[Symbol.asyncIterator]();
      try {
        const step = await iterator.next();
        return step.done ? { jobs: [], nextPageToken: '' } : step.value;
      } finally {
        // Stops the page iterator without fetching more.
        await iterator.return?.().catch(() => {});
      }
    });
    try {
      const page = await read;
      turn?.answered();
      return page;
    } catch (error) {
      turn?.failed();
      throw error;
    }
  }

  /** The pages of a range through these reads (each page retried on its own). */
  async *jobPages(range: JobRange): AsyncGenerator<JobsPage, void, undefined> {
    const seen = new Set<string>();
    let token = '';
    for (;;) {
      const page = await this.jobPage(range, token);
      yield page;
      if (!page.nextPageToken) return;
      if (seen.has(page.nextPageToken)) throw malformed('job list (it repeated a page token)');
      seen.add(page.nextPageToken);
      token = page.nextPageToken;
    }
  }

  /**
   * The service as reconciliation sees it within this pass: the same retried, counted reads (its
   * own request counting is then not needed: every attempt is in `tally`).
   */
  service(): JobsService {
    return {
      ...this.#service,
      getJob: (jobId) => this.getJob(jobId),
      jobPages: (range) => this.jobPages(range),
    };
  }

  async #read<T>(attempt: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n += 1) {
      this.tally.requests += 1;
      try {
        const value = await attempt();
        this.tally.answered += 1;
        return value;
      } catch (error) {
        const info = errorInfoOf(error);
        const delay = this.#signal?.aborted ? null : shortRetryDelay(info, n, this.#time.random, this.#policy);
        if (delay === null) {
          if (info.code === 'not_found') this.tally.answered += 1;
          throw error;
        }
        this.tally.retries += 1;
        await sleepOn(this.#time, delay, this.#signal);
      }
    }
  }
}

/** Time range of a listing, epoch ms. */
export interface ListingRange {
  start: number;
  end: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Pages through GET /jobs of `range` (newest first) until `enough` says so, the pages end or
 * `maxPages` were read. Each page is retried on its own; a page that still fails throws.
 */
export async function readListing(
  reads: RoundReads,
  range: ListingRange,
  enough: (summaries: readonly JobSummary[]) => boolean,
  maxPages: number,
): Promise<{ summaries: JobSummary[]; pages: number }> {
  const summaries: JobSummary[] = [];
  const seen = new Set<string>();
  let token = '';
  let pages = 0;
  while (pages < maxPages) {
    const page = checkJobsPage(await reads.jobPage({ start: iso(range.start), end: iso(range.end) }, token));
    pages += 1;
    summaries.push(...page.jobs);
    if (!page.nextPageToken || enough(summaries)) break;
    if (seen.has(page.nextPageToken)) throw malformed('job list (it repeated a page token)');
    seen.add(page.nextPageToken);
    token = page.nextPageToken;
  }
  return { summaries, pages };
}

/** The creation time of the oldest summary read (pages are newest first), or null. */
export function oldestCreatedAt(summaries: readonly JobSummary[]): number | null {
  for (let i = summaries.length - 1; i >= 0; i -= 1) {
    const at = parseTime(summaries[i]!.createdAt);
    if (at !== null) return at;
  }
  return null;
}
