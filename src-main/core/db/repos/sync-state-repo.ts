// Small key → JSON value facts about syncing (last full refresh, per-part timestamps).
import type BetterSqlite3 from 'better-sqlite3';
import { preparedOnFirstUse } from '../sql.ts';
import { parseJson } from '../values.ts';

export interface SyncStateEntry<T = unknown> {
  value: T;
  updatedAt: number;
}

export class SyncStateRepo {
  readonly #get: () => BetterSqlite3.Statement<[string], { value: string; updated_at: number }>;
  readonly #set: () => BetterSqlite3.Statement<[string, string, number]>;
  readonly #delete: () => BetterSqlite3.Statement<[string]>;

  constructor(db: BetterSqlite3.Database) {
    this.#get = preparedOnFirstUse(db, 'SELECT value, updated_at FROM sync_state WHERE key = ?');
    this.#set = preparedOnFirstUse(
      db,
      `
      INSERT INTO sync_state (key, value, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
    this.#delete = preparedOnFirstUse(db, 'DELETE FROM sync_state WHERE key = ?');
  }

  get<T = unknown>(key: string): SyncStateEntry<T> | undefined {
    const row = this.#get().get(key);
    return row ? { value: parseJson<T>(row.value) as T, updatedAt: row.updated_at } : undefined;
  }

  set(key: string, value: unknown, now: number): void {
    this.#set().run(key, JSON.stringify(value ?? null), now);
  }

  delete(key: string): boolean {
    return this.#delete().run(key).changes > 0;
  }
}
