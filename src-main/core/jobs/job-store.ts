// The engine's reads and writes of the jobs table: the db's JobsRepo for the outbox basics, plus
// the queries only the engine needs (in-flight set with the service's creation time, stale
// submissions, unnotified finishes, queue counts). All statements are prepared once.
import type BetterSqlite3 from 'better-sqlite3';
import type { Cache } from '../db/cache.ts';
import { freeForMe, workClaimsOf, type WorkClaims } from '../db/work-claims.ts';
import type { JobKind, JobPatch, JobRow, JobState } from '../db/repos/jobs-repo.ts';

export type { JobKind, JobPatch, JobRow, JobState };

export interface EngineJobRow extends JobRow {
  service_created_at: number | null;
  resubmitted_as: number | null;
}

export interface EngineJobPatch extends JobPatch {
  serviceCreatedAt?: number | null;
  resubmittedAs?: number | null;
}

const COLUMNS = `local_id, job_id, kind, model_id, request, state, service_status, error, created_at, updated_at,
  submitted_at, next_poll_at, attempts, last_polled_at, finished_at, notified_at, outputs, credits,
  service_created_at, resubmitted_as`;

export class JobStore {
  readonly #cache: Cache;
  readonly #claims: WorkClaims;
  readonly #get: BetterSqlite3.Statement<[number], EngineJobRow>;
  readonly #byJobId: BetterSqlite3.Statement<[string], EngineJobRow>;
  readonly #inFlight: BetterSqlite3.Statement<[], EngineJobRow>;
  readonly #submitting: BetterSqlite3.Statement<[{ me: string }], EngineJobRow>;
  readonly #nextPoll: BetterSqlite3.Statement<[], { next: number | null }>;
  readonly #recent: BetterSqlite3.Statement<[number, number], EngineJobRow>;
  readonly #unnotified: BetterSqlite3.Statement<[], EngineJobRow>;
  readonly #counts: BetterSqlite3.Statement<[], { state: JobState; count: number }>;
  readonly #setExtra: BetterSqlite3.Statement<{ id: number; sca: number | null; ra: number | null; now: number }>;
  readonly #setServiceCreated: BetterSqlite3.Statement<{ id: number; sca: number | null }>;
  readonly #setResubmitted: BetterSqlite3.Statement<{ id: number; ra: number; now: number }>;
  readonly #knownIds: BetterSqlite3.Statement<[string], { job_id: string }>;

  constructor(cache: Cache) {
    this.#cache = cache;
    this.#claims = workClaimsOf(cache.sqlite);
    const db = cache.sqlite;
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM jobs WHERE local_id = ?`);
    this.#byJobId = db.prepare(`SELECT ${COLUMNS} FROM jobs WHERE job_id = ?`);
    this.#inFlight = db.prepare(
      `SELECT ${COLUMNS} FROM jobs WHERE state IN ('queued', 'running') AND job_id IS NOT NULL ORDER BY created_at, local_id`,
    );
    this.#submitting = db.prepare(
      `SELECT ${COLUMNS} FROM jobs WHERE state = 'submitting' AND ${freeForMe()} ORDER BY created_at, local_id`,
    );
    this.#nextPoll = db.prepare(
      // A row without a time (written by an older version) counts as due now, never as "never".
      `SELECT min(coalesce(next_poll_at, 0)) AS next FROM jobs WHERE state IN ('queued', 'running') AND job_id IS NOT NULL`,
    );
    this.#recent = db.prepare(`
      SELECT ${COLUMNS} FROM jobs
      WHERE state IN ('submitting', 'queued', 'running', 'unknown') OR coalesce(finished_at, updated_at) >= ?
      ORDER BY created_at DESC, local_id DESC LIMIT ?`);
    this.#unnotified = db.prepare(`
      SELECT ${COLUMNS} FROM jobs
      WHERE notified_at IS NULL AND state IN ('succeeded', 'failed') AND finished_at IS NOT NULL
      ORDER BY finished_at, local_id`);
    this.#counts = db.prepare(
      `SELECT state, count(*) AS count FROM jobs WHERE state IN ('submitting', 'queued', 'running') GROUP BY state`,
    );
    this.#setExtra = db.prepare(
      'UPDATE jobs SET service_created_at = @sca, resubmitted_as = @ra, updated_at = @now WHERE local_id = @id',
    );
    this.#setServiceCreated = db.prepare(
      'UPDATE jobs SET service_created_at = @sca WHERE local_id = @id AND service_created_at IS NOT @sca',
    );
    this.#setResubmitted = db.prepare(
      'UPDATE jobs SET resubmitted_as = @ra, updated_at = @now WHERE local_id = @id AND resubmitted_as IS NULL',
    );
    this.#knownIds = db.prepare('SELECT job_id FROM jobs WHERE job_id IN (SELECT value FROM json_each(?))');
  }

  transaction<T>(work: () => T): T {
    return this.#cache.transaction(work);
  }

  /** The new row is claimed by this process: another one sharing the data folder never reconciles it mid-POST. */
  insert(kind: JobKind, modelId: string | null, request: unknown, now: number): EngineJobRow {
    return this.#cache.transaction(() => {
      const row = this.#cache.jobs.insert({ kind, modelId, request, now });
      this.#claims.claim('jobs', row.local_id);
      return this.mustGet(row.local_id);
    });
  }

  get(localId: number): EngineJobRow | undefined {
    return this.#get.get(localId);
  }

  mustGet(localId: number): EngineJobRow {
    const row = this.get(localId);
    if (!row) throw new Error(`Job ${localId} vanished`);
    return row;
  }

  getByJobId(jobId: string): EngineJobRow | undefined {
    return this.#byJobId.get(jobId);
  }

  /** Job ids (of the given ones) that some local row already follows. */
  knownJobIds(jobIds: readonly string[]): Set<string> {
    if (jobIds.length === 0) return new Set();
    return new Set(this.#knownIds.all(JSON.stringify(jobIds)).map((r) => r.job_id));
  }

  update(localId: number, patch: EngineJobPatch, now: number): void {
    const { serviceCreatedAt, resubmittedAs, ...base } = patch;
    this.#cache.jobs.update(localId, base, now);
    if (serviceCreatedAt !== undefined || resubmittedAs !== undefined) {
      const row = this.mustGet(localId);
      this.#setExtra.run({
        id: localId,
        sca: serviceCreatedAt === undefined ? row.service_created_at : serviceCreatedAt,
        ra: resubmittedAs === undefined ? row.resubmitted_as : resubmittedAs,
        now,
      });
    }
  }

  /** Learns the service's creation time of a job quietly (no updated_at bump, no event). */
  noteServiceCreatedAt(localId: number, createdAt: number | null): void {
    if (createdAt !== null) this.#setServiceCreated.run({ id: localId, sca: createdAt });
  }

  /** False when the job was already resubmitted (a double click must not send it twice). */
  markResubmitted(localId: number, newLocalId: number, now: number): boolean {
    return this.#setResubmitted.run({ id: localId, ra: newLocalId, now }).changes > 0;
  }

  /** queued/running jobs with a service job id: what the poller follows. */
  inFlight(): EngineJobRow[] {
    return this.#inFlight.all();
  }

  /** Rows left 'submitting' that no other live process is still sending. */
  submitting(): EngineJobRow[] {
    return this.#submitting.all({ me: this.#claims.token });
  }

  nextPollAt(): number | null {
    return this.#nextPoll.get()?.next ?? null;
  }

  /** Live jobs plus everything that finished since `since`, newest first. */
  recent(since: number, limit: number): EngineJobRow[] {
    return this.#recent.all(since, limit);
  }

  unnotified(): EngineJobRow[] {
    return this.#unnotified.all();
  }

  counts(): { submitting: number; queued: number; running: number } {
    const out = { submitting: 0, queued: 0, running: 0 };
    for (const { state, count } of this.#counts.all()) {
      if (state === 'submitting' || state === 'queued' || state === 'running') out[state] = count;
    }
    return out;
  }
}
