// The jobs table: the outbox row written (and claimed by this process) before the POST that
// creates the job, the engine's poll schedule and outcome, and what the engine asks of it
// (in-flight set, stale submissions, unnotified finishes, queue counts, costs).
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, setClause, sql } from '../sql.ts';
import { freeFor, workClaimsOf } from '../work-claims.ts';
import { writeTransaction } from '../write-transaction.ts';
import {
  JOB_COLUMNS,
  JOB_PATCH_COLUMNS,
  type JobKind,
  type JobPatch,
  type JobRow,
  type JobState,
  type NewJob,
} from './job-row.ts';

export { type JobKind, type JobPatch, type JobRow, type JobState, type NewJob } from './job-row.ts';

/** A job as the budget sees it: what it was, when it was asked for, what it cost (null: not reported yet). */
export type JobSpendingRow = Pick<
  JobRow,
  'local_id' | 'kind' | 'model_id' | 'state' | 'request' | 'credits' | 'created_at'
>;

const ACTIVE = sql`state IN ('queued', 'running')`;

export class JobsRepo {
  readonly #db: BetterSqlite3.Database;
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    this.#q = new StatementCache(db, 64);
  }

  /** Runs `work` in one IMMEDIATE transaction (see write-transaction.ts). */
  transaction<T>(work: () => T): T {
    return writeTransaction(this.#db, work);
  }

  /**
   * The outbox step: call before sending the request; returns the new row ('submitting'). The row
   * is claimed by this process, so another one sharing the data folder never reconciles it mid-POST.
   */
  insert(job: NewJob): JobRow {
    return this.transaction(() => {
      const request = JSON.stringify(job.request ?? {});
      const inserted = this.#q.get<{ local_id: number }>(sql`
        INSERT INTO jobs (kind, model_id, request, state, created_at, updated_at, origin_job_id)
        VALUES (${job.kind}, ${job.modelId}, ${request}, 'submitting', ${job.now}, ${job.now}, ${job.originJobId ?? null})
        RETURNING local_id`);
      if (!inserted) throw new Error('The job row vanished right after insert');
      workClaimsOf(this.#db).claim('jobs', inserted.local_id);
      return this.mustGet(inserted.local_id);
    });
  }

  /**
   * A job found on the service that no request can be tied to for sure: its own row, with no request
   * (so nothing of any request reaches its outputs), followed by the poller like any other job.
   */
  insertUnattributed(job: {
    jobId: string;
    kind: 'image' | 'video';
    state: 'queued' | 'running';
    serviceStatus: string;
    serviceCreatedAt: number;
    candidateRows: readonly number[];
    now: number;
  }): JobRow {
    const inserted = this.#q.get<{ local_id: number }>(sql`
      INSERT INTO jobs (job_id, kind, model_id, request, state, service_status, created_at, updated_at, submitted_at,
        next_poll_at, service_created_at, unattributed, candidate_rows)
      VALUES (${job.jobId}, ${job.kind}, NULL, '{}', ${job.state}, ${job.serviceStatus}, ${job.serviceCreatedAt},
        ${job.now}, ${job.serviceCreatedAt}, ${job.now}, ${job.serviceCreatedAt}, 1,
        ${JSON.stringify([...job.candidateRows])})
      RETURNING local_id`);
    if (!inserted) throw new Error('The job row vanished right after insert');
    return this.mustGet(inserted.local_id);
  }

  /** Removes a row (an unattributed job once the user tied it to its request's row). */
  delete(localId: number): boolean {
    return this.#q.run(sql`DELETE FROM jobs WHERE local_id = ${localId}`) > 0;
  }

  /**
   * Rows that may have created a job the service made between `start` and `end`: no job of their
   * own, sent (their latest POST) in that range, and not known to have created nothing (a row
   * waiting for a resend got a clear "not taken"). Every process's rows count, those mid-POST too.
   */
  possibleSenders(start: number, end: number): JobRow[] {
    return this.#q.all<JobRow>(sql`
      SELECT ${JOB_COLUMNS} FROM jobs
      WHERE job_id IS NULL AND unattributed = 0 AND resend_at IS NULL AND state IN ('submitting', 'unknown')
        AND coalesce(sent_at, created_at) BETWEEN ${start} AND ${end}
      ORDER BY created_at, local_id`);
  }

  /** Jobs found on the service and not tied to a request yet, created between `start` and `end`. */
  unattributedIn(start: number, end: number): JobRow[] {
    return this.#q.all<JobRow>(sql`
      SELECT ${JOB_COLUMNS} FROM jobs
      WHERE unattributed = 1 AND service_created_at BETWEEN ${start} AND ${end}
      ORDER BY service_created_at, local_id`);
  }

  /** Every job not tied to a request yet that names one of these rows as a possible sender. */
  unattributedNaming(localIds: readonly number[]): JobRow[] {
    if (localIds.length === 0) return [];
    return this.#q.all<JobRow>(sql`
      SELECT ${JOB_COLUMNS} FROM jobs
      WHERE unattributed = 1 AND EXISTS (
        SELECT 1 FROM json_each(candidate_rows) AS c
        WHERE c.value IN (SELECT value FROM json_each(${JSON.stringify(localIds)})))
      ORDER BY service_created_at, local_id`);
  }

  /** Rows waiting to be sent again (their last POST was clearly not taken), soonest first. */
  waitingResends(): JobRow[] {
    const me = workClaimsOf(this.#db).token;
    return this.#q.all<JobRow>(sql`
      SELECT ${JOB_COLUMNS} FROM jobs
      WHERE state = 'submitting' AND resend_at IS NOT NULL AND ${freeFor(me)} ORDER BY resend_at, local_id`);
  }

  /** Takes a row for sending (a resend after a restart): false when another live process holds it. */
  claimForSending(localId: number): boolean {
    return workClaimsOf(this.#db).claim('jobs', localId);
  }

  get(localId: number): JobRow | undefined {
    return this.#q.get<JobRow>(sql`SELECT ${JOB_COLUMNS} FROM jobs WHERE local_id = ${localId}`);
  }

  mustGet(localId: number): JobRow {
    const row = this.get(localId);
    if (!row) throw new Error(`Job ${localId} vanished`);
    return row;
  }

  getByJobId(jobId: string): JobRow | undefined {
    return this.#q.get<JobRow>(sql`SELECT ${JOB_COLUMNS} FROM jobs WHERE job_id = ${jobId}`);
  }

  /** Job ids (of the given ones) that some local row already follows. */
  knownJobIds(jobIds: readonly string[]): Set<string> {
    if (jobIds.length === 0) return new Set();
    const rows = this.#q.all<{ job_id: string }>(
      sql`SELECT job_id FROM jobs WHERE job_id IN (SELECT value FROM json_each(${JSON.stringify(jobIds)}))`,
    );
    return new Set(rows.map((r) => r.job_id));
  }

  listInStates(states: readonly JobState[]): JobRow[] {
    return this.#q.all<JobRow>(sql`
      SELECT ${JOB_COLUMNS} FROM jobs WHERE state IN (SELECT value FROM json_each(${JSON.stringify(states)}))
      ORDER BY created_at, local_id`);
  }

  update(localId: number, patch: JobPatch, now: number): boolean {
    const outputs =
      patch.outputs === undefined ? undefined : patch.outputs === null ? null : JSON.stringify(patch.outputs);
    const candidateRows =
      patch.candidateRows === undefined
        ? undefined
        : patch.candidateRows === null
          ? null
          : JSON.stringify(patch.candidateRows);
    const sets = setClause(JOB_PATCH_COLUMNS, { ...patch, outputs, candidateRows, updatedAt: now });
    return sets ? this.#q.run(sql`UPDATE jobs SET ${sets} WHERE local_id = ${localId}`) > 0 : false;
  }

  /** Learns the service's creation time of a job quietly (no updated_at bump, no event). */
  noteServiceCreatedAt(localId: number, createdAt: number | null): void {
    if (createdAt === null) return;
    this.#q.run(sql`
      UPDATE jobs SET service_created_at = ${createdAt}
      WHERE local_id = ${localId} AND service_created_at IS NOT ${createdAt}`);
  }

  /** False when the job was already resubmitted (a double click must not send it twice). */
  markResubmitted(localId: number, newLocalId: number, now: number): boolean {
    const changed = this.#q.run(sql`
      UPDATE jobs SET resubmitted_as = ${newLocalId}, updated_at = ${now}
      WHERE local_id = ${localId} AND resubmitted_as IS NULL`);
    return changed > 0;
  }

  /** queued/running jobs with a service job id: what the poller follows. */
  inFlight(): JobRow[] {
    return this.#q.all<JobRow>(
      sql`SELECT ${JOB_COLUMNS} FROM jobs WHERE ${ACTIVE} AND job_id IS NOT NULL ORDER BY created_at, local_id`,
    );
  }

  /** Rows left 'submitting' that no other live process is still sending. */
  submitting(): JobRow[] {
    const me = workClaimsOf(this.#db).token;
    return this.#q.all<JobRow>(
      sql`SELECT ${JOB_COLUMNS} FROM jobs WHERE state = 'submitting' AND ${freeFor(me)} ORDER BY created_at, local_id`,
    );
  }

  nextPollAt(): number | null {
    // A row without a time (written by an older version) counts as due now, never as "never".
    const row = this.#q.get<{ next: number | null }>(
      sql`SELECT min(coalesce(next_poll_at, 0)) AS next FROM jobs WHERE ${ACTIVE} AND job_id IS NOT NULL`,
    );
    return row?.next ?? null;
  }

  /** Live jobs plus everything that finished since `since`, newest first. */
  recent(since: number, limit: number): JobRow[] {
    return this.#q.all<JobRow>(sql`
      SELECT ${JOB_COLUMNS} FROM jobs
      WHERE state IN ('submitting', 'queued', 'running', 'unknown') OR unattributed = 1
        OR coalesce(finished_at, updated_at) >= ${since}
      ORDER BY created_at DESC, local_id DESC LIMIT ${limit}`);
  }

  unnotified(): JobRow[] {
    return this.#q.all<JobRow>(sql`
      SELECT ${JOB_COLUMNS} FROM jobs
      WHERE notified_at IS NULL AND state IN ('succeeded', 'failed') AND finished_at IS NOT NULL
      ORDER BY finished_at, local_id`);
  }

  counts(): { submitting: number; queued: number; running: number } {
    const out = { submitting: 0, queued: 0, running: 0 };
    const rows = this.#q.all<{ state: JobState; count: number }>(
      sql`SELECT state, count(*) AS count FROM jobs WHERE state IN ('submitting', 'queued', 'running') GROUP BY state`,
    );
    for (const { state, count } of rows) {
      if (state === 'submitting' || state === 'queued' || state === 'running') out[state] = count;
    }
    return out;
  }

  /**
   * Finished jobs of one kind and model whose cost is not known yet (finished alone, without the job
   * list); created_at is the service's own creation time where known (the one its job list filters on).
   */
  uncosted(
    kind: JobKind,
    modelId: string,
    since: number,
    limit: number,
  ): { local_id: number; job_id: string; created_at: number }[] {
    return this.#q.all(sql`
      SELECT local_id, job_id, coalesce(service_created_at, created_at) AS created_at FROM jobs
      WHERE kind = ${kind} AND model_id = ${modelId} AND state = 'succeeded' AND credits IS NULL
        AND job_id IS NOT NULL AND finished_at >= ${since}
      ORDER BY finished_at DESC LIMIT ${limit}`);
  }

  /**
   * What the budget counts (core/budgets/): the generation jobs created since `since` that were or
   * will be charged — with credits the service reported, or on their way / finished without a cost
   * yet (the budget estimates those). Oldest first.
   */
  spendingSince(since: number): JobSpendingRow[] {
    return this.#q.all<JobSpendingRow>(sql`
      SELECT local_id, kind, model_id, state, request, credits, created_at FROM jobs
      WHERE created_at >= ${since} AND kind IN ('image', 'video', 'upscale')
        AND (credits IS NOT NULL OR state IN ('submitting', 'queued', 'running', 'succeeded'))
      ORDER BY created_at, local_id`);
  }

  /**
   * How long recent jobs of one kind and model took (ms): from their request being sent to the
   * service's answer (`answered`) and to their end (`took`), newest first. Only jobs of this app.
   */
  timeHistory(kind: JobKind, modelId: string, limit: number): { took: number; answered: number | null }[] {
    return this.#q.all(sql`
      SELECT finished_at - coalesce(sent_at, created_at) AS took,
        submitted_at - coalesce(sent_at, created_at) AS answered
      FROM jobs
      WHERE kind = ${kind} AND model_id = ${modelId} AND state = 'succeeded' AND finished_at IS NOT NULL
        AND unattributed = 0
      ORDER BY finished_at DESC LIMIT ${limit}`);
  }

  /** What recent finished jobs of one kind and model cost, newest first, with their requests. */
  costHistory(kind: JobKind, modelId: string, limit: number): { request: string; credits: number }[] {
    return this.#q.all(sql`
      SELECT request, credits FROM jobs
      WHERE kind = ${kind} AND model_id = ${modelId} AND state = 'succeeded' AND credits IS NOT NULL
      ORDER BY finished_at DESC LIMIT ${limit}`);
  }
}
