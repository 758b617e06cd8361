// The library's view of the downloads table: rows joined with their asset, the columns of
// migration 2 (mode, content type, error code), and the scheduling queries of the queue.
import type BetterSqlite3 from 'better-sqlite3';
import { freeForMe } from '../db/work-claims.ts';

export type DownloadState = 'queued' | 'preparing' | 'downloading' | 'paused' | 'succeeded' | 'failed';
export type DownloadMode = 'file' | 'mp4' | 'hls';

export interface DownloadRow {
  id: number;
  asset_seq: number;
  /** NULL while a video download is being prepared by the service. */
  url: string | null;
  /** Library-relative destination; for HLS the entry playlist inside the copy's folder. */
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
  mode: DownloadMode;
  content_type: string | null;
  error_code: string | null;
}

/** A download joined with the asset it fetches. */
export interface DownloadWithAsset extends DownloadRow {
  asset_kind: 'image' | 'video';
  asset_id: string;
}

const COLUMNS = `d.id, d.asset_seq, d.url, d.dest, d.state, d.prepare_percent, d.bytes_done, d.bytes_total, d.etag,
  d.last_modified, d.attempts, d.next_attempt_at, d.error, d.created_at, d.updated_at, d.mode, d.content_type,
  d.error_code, a.kind AS asset_kind, a.id AS asset_id`;

const ACTIVE = `('queued', 'preparing', 'downloading')`;

export class DownloadStore {
  readonly #byAsset: BetterSqlite3.Statement<[number], DownloadWithAsset>;
  readonly #byId: BetterSqlite3.Statement<[number], DownloadWithAsset>;
  readonly #insert: BetterSqlite3.Statement;
  readonly #save: BetterSqlite3.Statement;
  readonly #delete: BetterSqlite3.Statement<[number]>;
  readonly #me: string;
  readonly #due: BetterSqlite3.Statement<[{ now: number; limit: number; me: string }], DownloadWithAsset>;
  readonly #heldElsewhere: BetterSqlite3.Statement<[{ me: string }], { n: number }>;
  readonly #nextWake: BetterSqlite3.Statement<[], { at: number | null }>;
  readonly #visible: BetterSqlite3.Statement<[number], DownloadWithAsset>;
  readonly #inStates: BetterSqlite3.Statement<[string], DownloadWithAsset>;
  readonly #counts: BetterSqlite3.Statement<[], { state: DownloadState; n: number }>;

  /** `me`: this process's worker token; rows another live worker holds are never due here. */
  constructor(db: BetterSqlite3.Database, me: string) {
    this.#me = me;
    const from = 'FROM downloads d JOIN assets a ON a.seq = d.asset_seq';
    this.#byAsset = db.prepare(`SELECT ${COLUMNS} ${from} WHERE d.asset_seq = ?`);
    this.#byId = db.prepare(`SELECT ${COLUMNS} ${from} WHERE d.id = ?`);
    this.#insert = db.prepare(`
      INSERT INTO downloads (asset_seq, url, dest, state, mode, created_at, updated_at)
      VALUES (@asset_seq, @url, @dest, 'queued', @mode, @now, @now)
      ON CONFLICT (asset_seq) DO UPDATE SET
        url = excluded.url, dest = excluded.dest, state = 'queued', mode = excluded.mode, prepare_percent = NULL,
        bytes_done = 0, bytes_total = NULL, etag = NULL, last_modified = NULL, content_type = NULL,
        attempts = 0, next_attempt_at = NULL, error = NULL, error_code = NULL, updated_at = excluded.updated_at`);
    this.#save = db.prepare(`
      UPDATE downloads SET url = @url, dest = @dest, state = @state, prepare_percent = @prepare_percent,
        bytes_done = @bytes_done, bytes_total = @bytes_total, etag = @etag, last_modified = @last_modified,
        attempts = @attempts, next_attempt_at = @next_attempt_at, error = @error, mode = @mode,
        content_type = @content_type, error_code = @error_code, updated_at = @updated_at
      WHERE id = @id`);
    this.#delete = db.prepare('DELETE FROM downloads WHERE id = ?');
    this.#due = db.prepare(
      `SELECT ${COLUMNS} ${from} WHERE d.state IN ${ACTIVE} AND coalesce(d.next_attempt_at, 0) <= @now
        AND ${freeForMe('d.')} ORDER BY d.id LIMIT @limit`,
    );
    this.#heldElsewhere = db.prepare(
      `SELECT count(*) AS n FROM downloads d WHERE d.state IN ${ACTIVE} AND NOT ${freeForMe('d.')}`,
    );
    this.#nextWake = db.prepare(`SELECT min(next_attempt_at) AS at FROM downloads WHERE state IN ${ACTIVE}`);
    this.#visible = db.prepare(
      `SELECT ${COLUMNS} ${from} WHERE d.state <> 'succeeded' OR d.updated_at >= ? ORDER BY d.id DESC LIMIT 500`,
    );
    this.#inStates = db.prepare(`SELECT ${COLUMNS} ${from} WHERE d.state = ? ORDER BY d.id`);
    this.#counts = db.prepare('SELECT state, count(*) AS n FROM downloads GROUP BY state');
  }

  getByAsset(assetSeq: number): DownloadWithAsset | undefined {
    return this.#byAsset.get(assetSeq);
  }

  get(id: number): DownloadWithAsset | undefined {
    return this.#byId.get(id);
  }

  /** Queues (or re-queues from scratch) the download of an asset. */
  enqueue(assetSeq: number, mode: DownloadMode, dest: string, url: string | null, now: number): DownloadWithAsset {
    this.#insert.run({ asset_seq: assetSeq, url, dest, mode, now });
    return this.getByAsset(assetSeq)!;
  }

  save(row: DownloadRow, now: number): void {
    row.updated_at = now;
    this.#save.run({
      id: row.id,
      url: row.url,
      dest: row.dest,
      state: row.state,
      prepare_percent: row.prepare_percent,
      bytes_done: row.bytes_done,
      bytes_total: row.bytes_total,
      etag: row.etag,
      last_modified: row.last_modified,
      attempts: row.attempts,
      next_attempt_at: row.next_attempt_at,
      error: row.error,
      mode: row.mode,
      content_type: row.content_type,
      error_code: row.error_code,
      updated_at: now,
    });
  }

  delete(id: number): void {
    this.#delete.run(id);
  }

  /** Active rows whose time has come, oldest first. */
  due(now: number, limit: number): DownloadWithAsset[] {
    return this.#due.all({ now, limit, me: this.#me });
  }

  /** Active rows another live process is working on (this one takes them over if it dies). */
  heldElsewhere(): number {
    return this.#heldElsewhere.get({ me: this.#me })?.n ?? 0;
  }

  /** The earliest scheduled attempt among active rows (null: nothing scheduled). */
  nextWakeAt(): number | null {
    return this.#nextWake.get()?.at ?? null;
  }

  /** Everything unfinished plus what finished since `succeededSince`, newest first. */
  visible(succeededSince: number): DownloadWithAsset[] {
    return this.#visible.all(succeededSince);
  }

  inState(state: DownloadState): DownloadWithAsset[] {
    return this.#inStates.all(state);
  }

  counts(): Record<DownloadState, number> {
    const counts: Record<DownloadState, number> = {
      queued: 0,
      preparing: 0,
      downloading: 0,
      paused: 0,
      succeeded: 0,
      failed: 0,
    };
    for (const { state, n } of this.#counts.all()) counts[state] = n;
    return counts;
  }
}
