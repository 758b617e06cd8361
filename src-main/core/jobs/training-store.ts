// The training watcher's rows: the models table's training columns (schema 1) and its
// wall-clock schedule and outcome (schema 3). A model row is created if sync has not seen it yet.
import type BetterSqlite3 from 'better-sqlite3';
import type { Cache } from '../db/cache.ts';

export type TrainState = 'training' | 'slow' | 'ready' | 'failed';

export interface TrainingRow {
  id: string;
  status: string;
  training_started_at: number | null;
  last_checked_at: number | null;
  train_state: string | null;
  train_next_check_at: number | null;
  train_error: string | null;
  train_notified_at: number | null;
}

export interface TrainingUpdate {
  id: string;
  status?: string;
  trainState?: TrainState;
  startedAt?: number;
  lastCheckedAt?: number | null;
  nextCheckAt?: number | null;
  error?: string | null;
  notifiedAt?: number | null;
}

const COLUMNS = `id, status, training_started_at, last_checked_at, train_state, train_next_check_at, train_error,
  train_notified_at`;

export class TrainingStore {
  readonly #get: BetterSqlite3.Statement<[string], TrainingRow>;
  readonly #watched: BetterSqlite3.Statement<[], TrainingRow>;
  readonly #nextCheck: BetterSqlite3.Statement<[], { next: number | null }>;
  readonly #ensure: BetterSqlite3.Statement<{ id: string; now: number }>;
  readonly #update: BetterSqlite3.Statement;

  constructor(cache: Cache) {
    const db = cache.sqlite;
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM models WHERE id = ?`);
    this.#watched = db.prepare(
      `SELECT ${COLUMNS} FROM models WHERE train_state IN ('training', 'slow') ORDER BY train_next_check_at`,
    );
    this.#nextCheck = db.prepare(
      `SELECT min(train_next_check_at) AS next FROM models WHERE train_state IN ('training', 'slow')`,
    );
    this.#ensure = db.prepare(
      `INSERT INTO models (id, local_created_at) VALUES (@id, @now) ON CONFLICT (id) DO NOTHING`,
    );
    // One statement for every patch: a NULL flag leaves the column alone.
    this.#update = db.prepare(`
      UPDATE models SET
        status = CASE WHEN @setStatus THEN @status ELSE status END,
        train_state = CASE WHEN @setState THEN @trainState ELSE train_state END,
        training_started_at = CASE WHEN @setStarted THEN @startedAt ELSE training_started_at END,
        last_checked_at = CASE WHEN @setChecked THEN @lastCheckedAt ELSE last_checked_at END,
        train_next_check_at = CASE WHEN @setNext THEN @nextCheckAt ELSE train_next_check_at END,
        train_error = CASE WHEN @setError THEN @error ELSE train_error END,
        train_notified_at = CASE WHEN @setNotified THEN @notifiedAt ELSE train_notified_at END
      WHERE id = @id`);
  }

  get(id: string): TrainingRow | undefined {
    return this.#get.get(id);
  }

  watched(): TrainingRow[] {
    return this.#watched.all();
  }

  nextCheckAt(): number | null {
    return this.#nextCheck.get()?.next ?? null;
  }

  ensureModel(id: string, now: number): void {
    this.#ensure.run({ id, now });
  }

  update(patch: TrainingUpdate): void {
    const flag = (value: unknown) => (value === undefined ? 0 : 1);
    this.#update.run({
      id: patch.id,
      setStatus: flag(patch.status),
      status: patch.status ?? null,
      setState: flag(patch.trainState),
      trainState: patch.trainState ?? null,
      setStarted: flag(patch.startedAt),
      startedAt: patch.startedAt ?? null,
      setChecked: flag(patch.lastCheckedAt),
      lastCheckedAt: patch.lastCheckedAt ?? null,
      setNext: flag(patch.nextCheckAt),
      nextCheckAt: patch.nextCheckAt ?? null,
      setError: flag(patch.error),
      error: patch.error ?? null,
      setNotified: flag(patch.notifiedAt),
      notifiedAt: patch.notifiedAt ?? null,
    });
  }
}
