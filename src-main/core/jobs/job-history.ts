// jobs:history: the service's own job list, a page at a time. The client walks pages as an
// iterator, so the token handed to the renderer names a paused iterator kept here for a while;
// an expired token is refused clearly instead of silently restarting at page one.
import { AppError } from '../../contract/errors.ts';
import type { JobHistoryPageInfo } from '../../contract/ipc/jobs.ts';
import { JOB_LIST_RANGE_MS, type JobsPage } from '../../contract/service.ts';
import type { JobListGate, JobListTurn } from '../api/job-list-gate.ts';
import type { EngineTime } from '../host/time.ts';
import type { JobsRepo } from '../db/repos/jobs-repo.ts';
import { checkJobsPage, type JobsService } from './service-port.ts';

interface Continuation {
  pages: AsyncIterator<JobsPage>;
  range: string;
  expiresAt: number;
}

const KEEP = 20;
const TTL_MS = 30 * 60_000;

export class JobHistory {
  readonly #service: JobsService;
  readonly #store: JobsRepo;
  readonly #time: EngineTime;
  readonly #open = new Map<string, Continuation>();
  /** The account's gate for GET /jobs: the user's page does not wait, but it counts as a listing. */
  readonly #gate: JobListGate | undefined;

  constructor(service: JobsService, store: JobsRepo, time: EngineTime, gate?: JobListGate) {
    this.#service = service;
    this.#store = store;
    this.#time = time;
    this.#gate = gate;
  }

  async page(query: { start: string; end: string; pageToken?: string | undefined }): Promise<JobHistoryPageInfo> {
    const from = Date.parse(query.start);
    const to = Date.parse(query.end);
    if (!(to >= from))
      throw new AppError({ code: 'invalid_argument', field: 'end', message: 'The end must not be before the start.' });
    if (to - from > JOB_LIST_RANGE_MS.max) {
      throw new AppError({
        code: 'invalid_argument',
        field: 'end',
        message: 'The service lists at most 7 days of jobs at a time: choose an end within 7 days of the start.',
      });
    }
    this.#expire();
    const range = `${query.start}|${query.end}`;
    let pages: AsyncIterator<JobsPage>;
    let turn: JobListTurn | undefined;
    if (query.pageToken) {
      const kept = this.#open.get(query.pageToken);
      if (!kept || kept.range !== range) {
        throw new AppError({
          code: 'invalid_argument',
          field: 'pageToken',
          message:
            'That page is no longer available (the list was left open too long): start again from the first page.',
        });
      }
      this.#open.delete(query.pageToken);
      pages = kept.pages;
    } else {
      turn = this.#gate?.claim();
      pages = this.#service.jobPages({ start: query.start, end: query.end })[Symbol.asyncIterator]();
    }
    let step: IteratorResult<JobsPage>;
    try {
      step = await pages.next();
      turn?.answered();
    } finally {
      turn?.failed();
    }
    const page = step.done ? { jobs: [], nextPageToken: '' } : checkJobsPage(step.value);
    if (page.nextPageToken) {
      this.#open.set(page.nextPageToken, { pages, range, expiresAt: this.#time.now() + TTL_MS });
      while (this.#open.size > KEEP) this.#drop(this.#open.keys().next().value!);
    } else {
      await pages.return?.().catch(() => {});
    }
    return {
      jobs: page.jobs.map((job) => ({
        jobId: job.jobId,
        status: job.status,
        createdAt: job.createdAt ?? null,
        updatedAt: job.updatedAt ?? null,
        credits: job.credits ?? null,
        errorMessage: job.errorMessage ? job.errorMessage : null,
        localId: this.#store.getByJobId(job.jobId)?.local_id ?? null,
        // What is known of it locally: filled where the cache is at hand (handlers/jobs.ts).
        kind: null,
        prompt: null,
        modelId: null,
        sourceImageId: null,
        output: null,
      })),
      nextPageToken: page.nextPageToken || null,
    };
  }

  close(): void {
    for (const token of [...this.#open.keys()]) this.#drop(token);
  }

  #expire(): void {
    const now = this.#time.now();
    for (const [token, kept] of this.#open) if (kept.expiresAt <= now) this.#drop(token);
  }

  #drop(token: string): void {
    const kept = this.#open.get(token);
    this.#open.delete(token);
    void kept?.pages.return?.().catch(() => {});
  }
}
