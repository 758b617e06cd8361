// The job outbox: a row is written before the POST that creates the job, and the engine keeps
// its poll schedule and outcome here. Basic operations; the engine builds its policy on top.
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, setClause, sql, type SqlFragment } from '../sql.ts';

export type JobKind = 'image' | 'upscale' | 'video' | 'training';
export type JobState = 'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'unknown';
export const ACTIVE_JOB_STATES: readonly JobState[] = ['queued', 'running'];

export interface JobRow {
  local_id: number;
  job_id: string | null;
  kind: JobKind;
  model_id: string | null;
  request: string;
  state: JobState;
  service_status: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  submitted_at: number | null;
  next_poll_at: number | null;
  attempts: number;
  last_polled_at: number | null;
  finished_at: number | null;
  notified_at: number | null;
  outputs: string | null;
  /** What the job cost, from the service's job list; null until known. */
  credits: number | null;
}

export interface NewJob {
  kind: JobKind;
  modelId: string | null;
  /** The request body as it will be sent (JSON-serialisable; never holds the API key). */
  request: unknown;
  now: number;
}

/** Fields the engine changes; undefined leaves a column alone, null clears it. */
export interface JobPatch {
  jobId?: string | null;
  state?: JobState;
  serviceStatus?: string | null;
  error?: string | null;
  submittedAt?: number | null;
  nextPollAt?: number | null;
  attempts?: number;
  lastPolledAt?: number | null;
  finishedAt?: number | null;
  notifiedAt?: number | null;
  /** Stored as JSON (e.g. the job's `images`/`videos` arrays). */
  outputs?: unknown;
  credits?: number | null;
}

const COLUMNS = `local_id, job_id, kind, model_id, request, state, service_status, error, created_at, updated_at,
  submitted_at, next_poll_at, attempts, last_polled_at, finished_at, notified_at, outputs, credits`;

const PATCH_COLUMNS: Record<keyof JobPatch | 'updatedAt', SqlFragment> = {
  jobId: sql`job_id`,
  state: sql`state`,
  serviceStatus: sql`service_status`,
  error: sql`error`,
  submittedAt: sql`submitted_at`,
  nextPollAt: sql`next_poll_at`,
  attempts: sql`attempts`,
  lastPolledAt: sql`last_polled_at`,
  finishedAt: sql`finished_at`,
  notifiedAt: sql`notified_at`,
  outputs: sql`outputs`,
  credits: sql`credits`,
  updatedAt: sql`updated_at`,
};

export class JobsRepo {
  readonly #q: StatementCache;
  readonly #insert: BetterSqlite3.Statement;
  readonly #get: BetterSqlite3.Statement<[number], JobRow>;
  readonly #byJobId: BetterSqlite3.Statement<[string], JobRow>;
  readonly #inStates: BetterSqlite3.Statement<[string], JobRow>;
  readonly #due: BetterSqlite3.Statement<[number, number], JobRow>;
  readonly #recent: BetterSqlite3.Statement<[number, number, number], JobRow>;
  readonly #delete: BetterSqlite3.Statement<[number]>;
  readonly #costs: BetterSqlite3.Statement<[string, string, number], { request: string; credits: number }>;
  readonly #uncosted: BetterSqlite3.Statement<
    [string, string, number, number],
    { local_id: number; job_id: string; created_at: number }
  >;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 32);
    this.#insert = db.prepare(`
      INSERT INTO jobs (kind, model_id, request, state, created_at, updated_at)
      VALUES (@kind, @modelId, @request, 'submitting', @now, @now)`);
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM jobs WHERE local_id = ?`);
    this.#byJobId = db.prepare(`SELECT ${COLUMNS} FROM jobs WHERE job_id = ?`);
    // States arrive as a JSON array so one statement serves any set of states.
    this.#inStates = db.prepare(
      `SELECT ${COLUMNS} FROM jobs WHERE state IN (SELECT value FROM json_each(?)) ORDER BY created_at, local_id`,
    );
    this.#due = db.prepare(`
      SELECT ${COLUMNS} FROM jobs
      WHERE state IN ('queued', 'running') AND next_poll_at <= ?
      ORDER BY next_poll_at LIMIT ?`);
    this.#recent = db.prepare(`
      SELECT ${COLUMNS} FROM jobs WHERE (created_at, local_id) < (?, ?)
      ORDER BY created_at DESC, local_id DESC LIMIT ?`);
    this.#delete = db.prepare('DELETE FROM jobs WHERE local_id = ?');
    this.#costs = db.prepare(`
      SELECT request, credits FROM jobs
      WHERE kind = ? AND model_id = ? AND state = 'succeeded' AND credits IS NOT NULL
      ORDER BY finished_at DESC LIMIT ?`);
    this.#uncosted = db.prepare(`
      SELECT local_id, job_id, coalesce(service_created_at, created_at) AS created_at FROM jobs
      WHERE kind = ? AND model_id = ? AND state = 'succeeded' AND credits IS NULL AND job_id IS NOT NULL
        AND finished_at >= ?
      ORDER BY finished_at DESC LIMIT ?`);
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
    return this.#uncosted.all(kind, modelId, since, limit);
  }

  /** What recent finished jobs of one kind and model cost, newest first, with their requests. */
  costHistory(kind: JobKind, modelId: string, limit: number): { request: string; credits: number }[] {
    return this.#costs.all(kind, modelId, limit);
  }

  /** The outbox step: call before sending the request; returns the new row ('submitting'). */
  insert(job: NewJob): JobRow {
    const info = this.#insert.run({
      kind: job.kind,
      modelId: job.modelId,
      request: JSON.stringify(job.request ?? {}),
      now: job.now,
    });
    const row = this.get(Number(info.lastInsertRowid));
    if (!row) throw new Error('The job row vanished right after insert');
    return row;
  }

  get(localId: number): JobRow | undefined {
    return this.#get.get(localId);
  }

  getByJobId(jobId: string): JobRow | undefined {
    return this.#byJobId.get(jobId);
  }

  listInStates(states: readonly JobState[]): JobRow[] {
    return this.#inStates.all(JSON.stringify(states));
  }

  /** Active jobs whose next poll time has come, soonest first. */
  listDue(now: number, limit = 100): JobRow[] {
    return this.#due.all(now, limit);
  }

  /** Newest first; pass the last row's (created_at, local_id) to read the next page. */
  listRecent(limit: number, before?: { createdAt: number; localId: number }): JobRow[] {
    return this.#recent.all(
      before?.createdAt ?? Number.MAX_SAFE_INTEGER,
      before?.localId ?? Number.MAX_SAFE_INTEGER,
      limit,
    );
  }

  update(localId: number, patch: JobPatch, now: number): boolean {
    const outputs =
      patch.outputs === undefined ? undefined : patch.outputs === null ? null : JSON.stringify(patch.outputs);
    const sets = setClause(PATCH_COLUMNS, { ...patch, outputs, updatedAt: now });
    return sets ? this.#q.run(sql`UPDATE jobs SET ${sets} WHERE local_id = ${localId}`) > 0 : false;
  }

  delete(localId: number): boolean {
    return this.#delete.run(localId).changes > 0;
  }
}
