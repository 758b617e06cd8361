// The batches and their items (migration 0017): what a batch planned, where each item stands, and
// the jobs row a sent item became. `markSent` is the one step that hands an item to the outbox: it
// runs inside the transaction that inserts the jobs row, and only a pending item can take it.
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, sql } from '../sql.ts';
import { writeTransaction } from '../write-transaction.ts';

export type BatchState = 'running' | 'paused' | 'cancelled' | 'done';
export type BatchItemState = 'pending' | 'sent' | 'refused' | 'cancelled' | 'paused';

export interface BatchRow {
  id: number;
  name: string;
  state: BatchState;
  paused_reason: string | null;
  created_at: number;
  updated_at: number;
  /** 1: the user chose to send it over a credit cap (schema 19): the runner does not stop it at the cap. */
  over_budget: number;
}

export interface BatchItemRow {
  batch_id: number;
  position: number;
  row: number;
  expansion: number | null;
  of: number;
  kind: 'image' | 'video';
  request: string;
  state: BatchItemState;
  problem: string | null;
  estimate: number | null;
  job_local_id: number | null;
  /** The state of the jobs row it became (joined), null while not sent. */
  job_state: string | null;
  /** That row's resend time (a "not taken" answer: it waits), null when not waiting. */
  job_resend_at: number | null;
}

export interface NewBatchItem {
  row: number;
  expansion: number | null;
  of: number;
  kind: 'image' | 'video';
  request: Record<string, unknown>;
  state: 'pending' | 'refused';
  problem: string | null;
  estimate: number | null;
}

export type BatchItemCounts = Record<BatchItemState, number>;

const ITEM_COLUMNS = sql`i.batch_id, i.position, i.row, i.expansion, i.of, i.kind, i.request, i.state, i.problem,
  i.estimate, i.job_local_id, j.state AS job_state, j.resend_at AS job_resend_at`;

export class BatchesRepo {
  readonly #db: BetterSqlite3.Database;
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    this.#q = new StatementCache(db, 32);
  }

  transaction<T>(work: () => T): T {
    return writeTransaction(this.#db, work);
  }

  /** A batch and all its items, in one transaction (a savepoint inside a caller's). */
  create(name: string, items: readonly NewBatchItem[], now: number, options: { overBudget?: boolean } = {}): BatchRow {
    return this.transaction(() => {
      const state = items.some((item) => item.state === 'pending') ? 'running' : 'done';
      const over = options.overBudget ? 1 : 0;
      const made = this.#q.get<{ id: number }>(sql`
        INSERT INTO batches (name, state, created_at, updated_at, over_budget)
        VALUES (${name}, ${state}, ${now}, ${now}, ${over})
        RETURNING id`);
      if (!made) throw new Error('The batch row vanished right after insert');
      const insert = this.#db.prepare(`
        INSERT INTO batch_items (batch_id, position, row, expansion, of, kind, request, state, problem, estimate)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      items.forEach((item, position) => {
        insert.run(
          made.id,
          position,
          item.row,
          item.expansion,
          item.of,
          item.kind,
          JSON.stringify(item.request),
          item.state,
          item.problem,
          item.estimate,
        );
      });
      return this.mustGet(made.id);
    });
  }

  get(id: number): BatchRow | undefined {
    return this.#q.get<BatchRow>(sql`SELECT * FROM batches WHERE id = ${id}`);
  }

  mustGet(id: number): BatchRow {
    const row = this.get(id);
    if (!row) throw new Error(`batch ${id} vanished`);
    return row;
  }

  list(limit: number): BatchRow[] {
    return this.#q.all<BatchRow>(sql`SELECT * FROM batches ORDER BY id DESC LIMIT ${limit}`);
  }

  inState(state: BatchState): BatchRow[] {
    return this.#q.all<BatchRow>(sql`SELECT * FROM batches WHERE state = ${state} ORDER BY id`);
  }

  items(batchId: number): BatchItemRow[] {
    return this.#q.all<BatchItemRow>(sql`
      SELECT ${ITEM_COLUMNS} FROM batch_items i LEFT JOIN jobs j ON j.local_id = i.job_local_id
      WHERE i.batch_id = ${batchId} ORDER BY i.position`);
  }

  counts(batchId: number): BatchItemCounts {
    const counts: BatchItemCounts = { pending: 0, sent: 0, refused: 0, cancelled: 0, paused: 0 };
    for (const { state, n } of this.#q.all<{ state: BatchItemState; n: number }>(
      sql`SELECT state, count(*) AS n FROM batch_items WHERE batch_id = ${batchId} GROUP BY state`,
    ))
      counts[state] = n;
    return counts;
  }

  /** How many of its sent items' jobs are in each state (what a batch's progress shows). */
  jobStates(batchId: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const { state, n } of this.#q.all<{ state: string; n: number }>(sql`
      SELECT j.state AS state, count(*) AS n FROM batch_items i JOIN jobs j ON j.local_id = i.job_local_id
      WHERE i.batch_id = ${batchId} GROUP BY j.state`))
      out[state] = n;
    return out;
  }

  /** The first pending item, leaving out the positions being handed to the outbox right now. */
  nextPending(batchId: number, skip: readonly number[] = []): BatchItemRow | undefined {
    return this.#q.get<BatchItemRow>(sql`
      SELECT ${ITEM_COLUMNS} FROM batch_items i LEFT JOIN jobs j ON j.local_id = i.job_local_id
      WHERE i.batch_id = ${batchId} AND i.state = 'pending'
        AND i.position NOT IN (SELECT value FROM json_each(${JSON.stringify(skip)}))
      ORDER BY i.position LIMIT 1`);
  }

  /** The batch a jobs row was sent for (itself, or the job it was sent again in place of), or null. */
  batchOfJob(jobLocalId: number): number | null {
    return (
      this.#q.get<{ batch_id: number }>(sql`
        WITH RECURSIVE back (id, depth) AS (
          SELECT ${jobLocalId}, 0
          UNION ALL
          SELECT j.local_id, back.depth + 1 FROM jobs j JOIN back ON j.resubmitted_as = back.id WHERE back.depth < 50
        )
        SELECT i.batch_id FROM back JOIN batch_items i ON i.job_local_id = back.id LIMIT 1`)?.batch_id ?? null
    );
  }

  /**
   * Sent items whose request the service has not taken yet: the POST is under way, it waits for a
   * resend (429, 503), or its fate is being checked. This is what "in flight" counts for pacing.
   */
  unanswered(batchId: number): BatchItemRow[] {
    return this.#q.all<BatchItemRow>(sql`
      SELECT ${ITEM_COLUMNS} FROM batch_items i JOIN jobs j ON j.local_id = i.job_local_id
      WHERE i.batch_id = ${batchId} AND i.state = 'sent' AND j.state = 'submitting' AND j.job_id IS NULL`);
  }

  /** Hands a pending item to the outbox (call inside the transaction inserting its jobs row). */
  markSent(batchId: number, position: number, jobLocalId: number): boolean {
    return (
      this.#q.run(sql`
        UPDATE batch_items SET state = 'sent', job_local_id = ${jobLocalId}
        WHERE batch_id = ${batchId} AND position = ${position} AND state = 'pending'`) > 0
    );
  }

  markRefused(batchId: number, position: number, problem: string): void {
    this.#q.run(sql`
      UPDATE batch_items SET state = 'refused', problem = ${problem}
      WHERE batch_id = ${batchId} AND position = ${position} AND state = 'pending'`);
  }

  /** Moves every item of `from` to `to` (pause: pending→paused, resume back, cancel: both→cancelled). */
  moveItems(batchId: number, from: readonly BatchItemState[], to: BatchItemState): number {
    const [a = '', b = ''] = from;
    return this.#q.run(sql`
      UPDATE batch_items SET state = ${to} WHERE batch_id = ${batchId} AND state IN (${a}, ${b})`);
  }

  setState(batchId: number, state: BatchState, reason: string | null, now: number): void {
    this.#q.run(sql`
      UPDATE batches SET state = ${state}, paused_reason = ${reason}, updated_at = ${now} WHERE id = ${batchId}`);
  }
}
