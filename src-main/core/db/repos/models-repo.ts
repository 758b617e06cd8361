// Models in the cache: server fields from sync, the user's local label, and the training
// watcher's fields (which the engine owns).
import type BetterSqlite3 from 'better-sqlite3';
import type { ModelServerFields } from '../server-records.ts';
import { StatementCache, setClause, sql, type SqlFragment } from '../sql.ts';
import type { UpsertOutcome } from './assets-repo.ts';

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
}

export interface TrainingPatch {
  trainingStartedAt?: number | null;
  lastCheckedAt?: number | null;
  trainState?: string | null;
  /** The status read while watching (GET /models/{id}) before the next full sync. */
  status?: string;
}

export interface UploadedCounts {
  modelInput: number;
  auxiliaryType: number;
}

const COLUMNS = `id, model_type, status, created_at, updated_at, local_created_at, label, training_started_at,
  last_checked_at, train_state`;

const TRAINING_COLUMNS: Record<keyof TrainingPatch, SqlFragment> = {
  trainingStartedAt: sql`training_started_at`,
  lastCheckedAt: sql`last_checked_at`,
  trainState: sql`train_state`,
  status: sql`status`,
};

export class ModelsRepo {
  readonly #q: StatementCache;
  readonly #list: BetterSqlite3.Statement<[], ModelRow>;
  readonly #get: BetterSqlite3.Statement<[string], ModelRow>;
  readonly #hashOf: BetterSqlite3.Statement<[string], { server_hash: string | null }>;
  readonly #upsert: BetterSqlite3.Statement;
  readonly #delete: BetterSqlite3.Statement<[string]>;
  readonly #setLabel: BetterSqlite3.Statement<[string | null, string]>;
  readonly #uploaded: BetterSqlite3.Statement<[], { model_id: string; type: string; count: number }>;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 8);
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM models ORDER BY created_at DESC NULLS LAST, id`);
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM models WHERE id = ?`);
    this.#hashOf = db.prepare('SELECT server_hash FROM models WHERE id = ?');
    this.#upsert = db.prepare(`
      INSERT INTO models (id, model_type, status, created_at, updated_at, server_hash, local_created_at)
      VALUES (@id, @modelType, @status, @createdAt, @updatedAt, @serverHash, @now)
      ON CONFLICT (id) DO UPDATE SET model_type = excluded.model_type, status = excluded.status,
        created_at = excluded.created_at, updated_at = excluded.updated_at, server_hash = excluded.server_hash`);
    this.#delete = db.prepare('DELETE FROM models WHERE id = ?');
    this.#setLabel = db.prepare('UPDATE models SET label = ? WHERE id = ?');
    this.#uploaded = db.prepare(`
      SELECT model_id, type, count(*) AS count FROM assets
      WHERE origin = 'uploaded' AND kind = 'image' AND model_id IS NOT NULL
      GROUP BY model_id, type`);
  }

  list(): ModelRow[] {
    return this.#list.all();
  }

  get(id: string): ModelRow | undefined {
    return this.#get.get(id);
  }

  upsertFromServer(fields: ModelServerFields, now: number): UpsertOutcome {
    const existing = this.#hashOf.get(fields.id);
    if (existing?.server_hash === fields.serverHash) return 'unchanged';
    this.#upsert.run({ ...fields, now });
    return existing ? 'updated' : 'inserted';
  }

  delete(id: string): boolean {
    return this.#delete.run(id).changes > 0;
  }

  /** NULL (or blank) clears the label; returns false when the model is not cached. */
  setLabel(id: string, label: string | null): boolean {
    const clean = label?.trim() ? label.trim() : null;
    return this.#setLabel.run(clean, id).changes > 0;
  }

  setTraining(id: string, patch: TrainingPatch): boolean {
    const sets = setClause(TRAINING_COLUMNS, patch);
    return sets ? this.#q.run(sql`UPDATE models SET ${sets} WHERE id = ${id}`) > 0 : false;
  }

  /** Training inputs and reference images per model (the training screen needs 12–20 inputs). */
  uploadedCounts(): Map<string, UploadedCounts> {
    const counts = new Map<string, UploadedCounts>();
    for (const row of this.#uploaded.all()) {
      const entry = counts.get(row.model_id) ?? { modelInput: 0, auxiliaryType: 0 };
      if (row.type === 'modelInput' || row.type === 'auxiliaryType') entry[row.type] = row.count;
      counts.set(row.model_id, entry);
    }
    return counts;
  }
}
