// Experiments and their cells (migration 0019). An experiment is saved in ONE transaction with its
// batch and the batch's items (BatchesRepo.create inside it), so a crash leaves both or neither;
// cell N is batch item N. Reading a cell joins its batch item and the jobs row it became, so the
// matrix is read from the database alone (offline).
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, sql } from '../sql.ts';
import { writeTransaction } from '../write-transaction.ts';
import type { BatchItemState, BatchesRepo, NewBatchItem } from './batches-repo.ts';

export interface ExperimentRow {
  id: number;
  batch_id: number;
  name: string;
  kind: 'image' | 'video';
  /** JSON: the axes as the channel says them (ExperimentAxisInfo[]). */
  axes: string;
  /** JSON: the rows' and columns' values and labels (ExperimentValueInfo[]). */
  rows: string;
  columns: string;
  created_at: number;
}

export interface NewExperimentCell {
  row: number;
  column: number;
  /** The request as planned (what is sent, or what was refused). */
  body: Record<string, unknown>;
  notes: unknown[];
  refused: string | null;
  /** The estimate as planned (CostEstimateInfo). */
  estimate: unknown;
}

export interface NewExperiment {
  name: string;
  kind: 'image' | 'video';
  axes: unknown[];
  rows: unknown[];
  columns: unknown[];
  /** Cell N becomes batch item N: pending to send, or refused with its reason. */
  cells: readonly NewExperimentCell[];
  overBudget: boolean;
}

/** A cell with its batch item and the jobs row that item became (null while not sent). */
export interface ExperimentCellRow {
  position: number;
  row: number;
  column: number;
  body: string;
  notes: string;
  refused: string | null;
  estimate: string;
  item_state: BatchItemState;
  problem: string | null;
  job_local_id: number | null;
  job_state: string | null;
  job_error: string | null;
  job_outputs: string | null;
}

export interface ExperimentSummary {
  cells: number;
  finished: number;
  failed: number;
  credits: number;
}

/**
 * Per item of batch `batchId`: every job it led to (its own, then each one sent again in place of
 * the previous: "Try again"), and `latest`, the last of them (what its cell shows).
 */
const attempts = (batchId: number) => sql`
  WITH RECURSIVE chain (position, local_id, depth) AS (
    SELECT position, job_local_id, 0 FROM batch_items WHERE batch_id = ${batchId} AND job_local_id IS NOT NULL
    UNION ALL
    SELECT chain.position, j.resubmitted_as, chain.depth + 1
    FROM chain JOIN jobs j ON j.local_id = chain.local_id
    WHERE j.resubmitted_as IS NOT NULL AND chain.depth < 50
  ),
  latest (position, local_id) AS (
    SELECT position, local_id FROM chain c
    WHERE NOT EXISTS (SELECT 1 FROM chain d WHERE d.position = c.position AND d.depth > c.depth)
  )`;

export class ExperimentsRepo {
  readonly #db: BetterSqlite3.Database;
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    this.#q = new StatementCache(db, 16);
  }

  /** The experiment, its batch and the batch's items, all at once or not at all. */
  create(experiment: NewExperiment, batches: BatchesRepo, now: number): ExperimentRow {
    return writeTransaction(this.#db, () => {
      const items: NewBatchItem[] = experiment.cells.map((cell, position) => ({
        row: position + 1,
        expansion: null,
        of: 1,
        kind: experiment.kind,
        request: cell.body,
        state: cell.refused === null ? 'pending' : 'refused',
        problem: cell.refused,
        estimate: (cell.estimate as { credits?: number | null } | null)?.credits ?? null,
      }));
      const batch = batches.create(experiment.name, items, now, { overBudget: experiment.overBudget });
      const made = this.#q.get<{ id: number }>(sql`
        INSERT INTO experiments (batch_id, name, kind, axes, rows, columns, created_at)
        VALUES (${batch.id}, ${experiment.name}, ${experiment.kind}, ${JSON.stringify(experiment.axes)},
          ${JSON.stringify(experiment.rows)}, ${JSON.stringify(experiment.columns)}, ${now})
        RETURNING id`);
      if (!made) throw new Error('The experiment row vanished right after insert');
      const insert = this.#db.prepare(`
        INSERT INTO experiment_cells (experiment_id, position, row, "column", body, notes, refused, estimate)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
      experiment.cells.forEach((cell, position) => {
        insert.run(
          made.id,
          position,
          cell.row,
          cell.column,
          JSON.stringify(cell.body),
          JSON.stringify(cell.notes),
          cell.refused,
          JSON.stringify(cell.estimate),
        );
      });
      return this.mustGet(made.id);
    });
  }

  get(id: number): ExperimentRow | undefined {
    return this.#q.get<ExperimentRow>(sql`SELECT * FROM experiments WHERE id = ${id}`);
  }

  mustGet(id: number): ExperimentRow {
    const row = this.get(id);
    if (!row) throw new Error(`experiment ${id} vanished`);
    return row;
  }

  /** Newest first. */
  list(limit: number): ExperimentRow[] {
    return this.#q.all<ExperimentRow>(sql`SELECT * FROM experiments ORDER BY id DESC LIMIT ${limit}`);
  }

  /** The experiment a batch was sent for, if any. */
  byBatch(batchId: number): ExperimentRow | undefined {
    return this.#q.get<ExperimentRow>(sql`SELECT * FROM experiments WHERE batch_id = ${batchId}`);
  }

  /** Its cells in order, each with its batch item and its latest job (a job sent again replaces the one before). */
  cells(id: number): ExperimentCellRow[] {
    const experiment = this.get(id);
    if (!experiment) return [];
    return this.#q.all<ExperimentCellRow>(sql`
      ${attempts(experiment.batch_id)}
      SELECT c.position, c.row, c."column" AS "column", c.body, c.notes, c.refused, c.estimate,
        i.state AS item_state, i.problem, l.local_id AS job_local_id,
        j.state AS job_state, j.error AS job_error, j.outputs AS job_outputs
      FROM experiment_cells c
        JOIN batch_items i ON i.batch_id = ${experiment.batch_id} AND i.position = c.position
        LEFT JOIN latest l ON l.position = c.position
        LEFT JOIN jobs j ON j.local_id = l.local_id
      WHERE c.experiment_id = ${id}
      ORDER BY c.position`);
  }

  /**
   * How many cells; finished (their latest job succeeded); failed (it failed, or the cell was
   * refused); the credits charged for every attempt.
   */
  summary(id: number): ExperimentSummary {
    const experiment = this.get(id);
    if (!experiment) return { cells: 0, finished: 0, failed: 0, credits: 0 };
    const row = this.#q.get<ExperimentSummary>(sql`
      ${attempts(experiment.batch_id)}
      SELECT count(*) AS cells,
        coalesce(sum(j.state = 'succeeded'), 0) AS finished,
        coalesce(sum(j.state = 'failed' OR i.state = 'refused'), 0) AS failed,
        coalesce((SELECT sum(k.credits) FROM chain JOIN jobs k ON k.local_id = chain.local_id), 0) AS credits
      FROM batch_items i
        LEFT JOIN latest l ON l.position = i.position
        LEFT JOIN jobs j ON j.local_id = l.local_id
      WHERE i.batch_id = ${experiment.batch_id}`);
    return row ?? { cells: 0, finished: 0, failed: 0, credits: 0 };
  }

  /** Forgets the experiment and its cells (its batch, jobs and assets stay). */
  delete(id: number): boolean {
    return this.#q.run(sql`DELETE FROM experiments WHERE id = ${id}`) > 0;
  }
}
