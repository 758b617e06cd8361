// The download queue: one row per asset being copied to the library (resume state, attempts).
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, setClause, sql, type SqlFragment } from '../sql.ts';

export type DownloadState = 'queued' | 'preparing' | 'downloading' | 'paused' | 'succeeded' | 'failed';

export interface DownloadRow {
  id: number;
  asset_seq: number;
  url: string | null;
  dest: string;
  state: DownloadState;
  prepare_percent: number | null;
  bytes_done: number;
  bytes_total: number | null;
  etag: string | null;
  last_modified: string | null;
  attempts: number;
  next_attempt_at: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface DownloadPatch {
  url?: string | null;
  dest?: string;
  state?: DownloadState;
  preparePercent?: number | null;
  bytesDone?: number;
  bytesTotal?: number | null;
  etag?: string | null;
  lastModified?: string | null;
  attempts?: number;
  nextAttemptAt?: number | null;
  error?: string | null;
}

const COLUMNS = `id, asset_seq, url, dest, state, prepare_percent, bytes_done, bytes_total, etag, last_modified,
  attempts, next_attempt_at, error, created_at, updated_at`;

const PATCH_COLUMNS: Record<keyof DownloadPatch | 'updatedAt', SqlFragment> = {
  url: sql`url`,
  dest: sql`dest`,
  state: sql`state`,
  preparePercent: sql`prepare_percent`,
  bytesDone: sql`bytes_done`,
  bytesTotal: sql`bytes_total`,
  etag: sql`etag`,
  lastModified: sql`last_modified`,
  attempts: sql`attempts`,
  nextAttemptAt: sql`next_attempt_at`,
  error: sql`error`,
  updatedAt: sql`updated_at`,
};

export class DownloadsRepo {
  readonly #q: StatementCache;
  readonly #enqueue: BetterSqlite3.Statement;
  readonly #get: BetterSqlite3.Statement<[number], DownloadRow>;
  readonly #byAsset: BetterSqlite3.Statement<[number], DownloadRow>;
  readonly #ready: BetterSqlite3.Statement<[number, number], DownloadRow>;
  readonly #inStates: BetterSqlite3.Statement<[string], DownloadRow>;
  readonly #delete: BetterSqlite3.Statement<[number]>;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 32);
    // Enqueuing an asset that already has a row revives a failed or paused one and keeps any other.
    this.#enqueue = db.prepare(`
      INSERT INTO downloads (asset_seq, url, dest, state, created_at, updated_at)
      VALUES (@assetSeq, @url, @dest, 'queued', @now, @now)
      ON CONFLICT (asset_seq) DO UPDATE SET state = 'queued', url = coalesce(excluded.url, downloads.url),
        dest = excluded.dest, error = NULL, next_attempt_at = NULL, updated_at = excluded.updated_at
      WHERE downloads.state IN ('failed', 'paused')`);
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM downloads WHERE id = ?`);
    this.#byAsset = db.prepare(`SELECT ${COLUMNS} FROM downloads WHERE asset_seq = ?`);
    this.#ready = db.prepare(`
      SELECT ${COLUMNS} FROM downloads
      WHERE state = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
      ORDER BY id LIMIT ?`);
    this.#inStates = db.prepare(
      `SELECT ${COLUMNS} FROM downloads WHERE state IN (SELECT value FROM json_each(?)) ORDER BY id`,
    );
    this.#delete = db.prepare('DELETE FROM downloads WHERE id = ?');
  }

  /** Queues the asset's download (idempotent) and returns its row. */
  enqueue(item: { assetSeq: number; url: string | null; dest: string; now: number }): DownloadRow {
    this.#enqueue.run(item);
    const row = this.#byAsset.get(item.assetSeq);
    if (!row) throw new Error('The download row vanished right after enqueue');
    return row;
  }

  get(id: number): DownloadRow | undefined {
    return this.#get.get(id);
  }

  getByAsset(assetSeq: number): DownloadRow | undefined {
    return this.#byAsset.get(assetSeq);
  }

  /** Queued rows whose retry time has come, oldest first. */
  listReady(now: number, limit: number): DownloadRow[] {
    return this.#ready.all(now, limit);
  }

  listInStates(states: readonly DownloadState[]): DownloadRow[] {
    return this.#inStates.all(JSON.stringify(states));
  }

  update(id: number, patch: DownloadPatch, now: number): boolean {
    const sets = setClause(PATCH_COLUMNS, { ...patch, updatedAt: now });
    return sets ? this.#q.run(sql`UPDATE downloads SET ${sets} WHERE id = ${id}`) > 0 : false;
  }

  delete(id: number): boolean {
    return this.#delete.run(id).changes > 0;
  }
}
