// Models in the cache: server fields from sync, the user's local label, and the training
// watcher's fields (which the engine owns).
import type BetterSqlite3 from 'better-sqlite3';
import type { ModelServerFields } from '../record-fields.ts';
import { StatementCache, setClause, sql, type SqlFragment } from '../sql.ts';
import type { UpsertOutcome } from './assets-repo.ts';

export type TrainState = 'training' | 'slow' | 'ready' | 'failed';

export interface ModelRow {
  id: string;
  model_type: string;
  status: string;
  created_at: number | null;
  updated_at: number | null;
  local_created_at: number;
  label: string | null;
  training_started_at: number | null;
  last_checked_at: number | null;
  train_state: string | null;
  train_next_check_at: number | null;
  train_error: string | null;
  train_notified_at: number | null;
}

/** The training watcher's columns; undefined leaves a column alone, null clears it. */
export interface TrainingPatch {
  /** The status read while watching (GET /models/{id}) before the next full sync. */
  status?: string;
  trainState?: TrainState | null;
  startedAt?: number | null;
  lastCheckedAt?: number | null;
  nextCheckAt?: number | null;
  error?: string | null;
  notifiedAt?: number | null;
}

export interface UploadedCounts {
  modelInput: number;
  auxiliaryType: number;
}

const COLUMNS = sql`id, model_type, status, created_at, updated_at, local_created_at, label, training_started_at,
  last_checked_at, train_state, train_next_check_at, train_error, train_notified_at`;

const TRAINING_COLUMNS: Record<keyof TrainingPatch, SqlFragment> = {
  status: sql`status`,
  trainState: sql`train_state`,
  startedAt: sql`training_started_at`,
  lastCheckedAt: sql`last_checked_at`,
  nextCheckAt: sql`train_next_check_at`,
  error: sql`train_error`,
  notifiedAt: sql`train_notified_at`,
};

const WATCHED = sql`train_state IN ('training', 'slow')`;

export class ModelsRepo {
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 24);
  }

  list(): ModelRow[] {
    return this.#q.all<ModelRow>(sql`SELECT ${COLUMNS} FROM models ORDER BY created_at DESC NULLS LAST, id`);
  }

  get(id: string): ModelRow | undefined {
    return this.#q.get<ModelRow>(sql`SELECT ${COLUMNS} FROM models WHERE id = ${id}`);
  }

  upsertFromServer(fields: ModelServerFields, now: number): UpsertOutcome {
    const existing = this.#q.get<{ server_hash: string | null }>(
      sql`SELECT server_hash FROM models WHERE id = ${fields.id}`,
    );
    if (existing?.server_hash === fields.serverHash) return 'unchanged';
    this.#q.run(sql`
      INSERT INTO models (id, model_type, status, created_at, updated_at, server_hash, local_created_at)
      VALUES (${fields.id}, ${fields.modelType}, ${fields.status}, ${fields.createdAt}, ${fields.updatedAt},
        ${fields.serverHash}, ${now})
      ON CONFLICT (id) DO UPDATE SET model_type = excluded.model_type, status = excluded.status,
        created_at = excluded.created_at, updated_at = excluded.updated_at, server_hash = excluded.server_hash`);
    return existing ? 'updated' : 'inserted';
  }

  delete(id: string): boolean {
    return this.#q.run(sql`DELETE FROM models WHERE id = ${id}`) > 0;
  }

  /** NULL (or blank) clears the label; returns false when the model is not cached. */
  setLabel(id: string, label: string | null): boolean {
    const clean = label?.trim() ? label.trim() : null;
    return this.#q.run(sql`UPDATE models SET label = ${clean} WHERE id = ${id}`) > 0;
  }

  /** A model the service started training before sync has seen it gets a row of its own. */
  ensure(id: string, now: number): void {
    this.#q.run(sql`INSERT INTO models (id, local_created_at) VALUES (${id}, ${now}) ON CONFLICT (id) DO NOTHING`);
  }

  /** Models whose training is being watched, the next one due first. */
  watchedTraining(): ModelRow[] {
    return this.#q.all<ModelRow>(sql`SELECT ${COLUMNS} FROM models WHERE ${WATCHED} ORDER BY train_next_check_at`);
  }

  /** Models training now, and those whose training ended (ready/failed) since `since`, newest first. */
  trainings(since: number): ModelRow[] {
    return this.#q.all<ModelRow>(
      sql`SELECT ${COLUMNS} FROM models
          WHERE ${WATCHED} OR (train_state IN ('ready', 'failed') AND last_checked_at >= ${since})
          ORDER BY training_started_at DESC, id`,
    );
  }

  nextTrainingCheckAt(): number | null {
    const row = this.#q.get<{ next: number | null }>(
      sql`SELECT min(train_next_check_at) AS next FROM models WHERE ${WATCHED}`,
    );
    return row?.next ?? null;
  }

  setTraining(id: string, patch: TrainingPatch): boolean {
    const sets = setClause(TRAINING_COLUMNS, patch);
    return sets ? this.#q.run(sql`UPDATE models SET ${sets} WHERE id = ${id}`) > 0 : false;
  }

  /** Training inputs and reference images per model (the training screen needs 12–20 inputs). */
  uploadedCounts(): Map<string, UploadedCounts> {
    const counts = new Map<string, UploadedCounts>();
    const rows = this.#q.all<{ model_id: string; type: string; count: number }>(sql`
      SELECT model_id, type, count(*) AS count FROM assets
      WHERE origin = 'uploaded' AND kind = 'image' AND model_id IS NOT NULL
      GROUP BY model_id, type`);
    for (const row of rows) {
      const entry = counts.get(row.model_id) ?? { modelInput: 0, auxiliaryType: 0 };
      if (row.type === 'modelInput' || row.type === 'auxiliaryType') entry[row.type] = row.count;
      counts.set(row.model_id, entry);
    }
    return counts;
  }
}
