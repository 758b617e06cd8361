// The downloads table: one row per asset being (or lately) downloaded, always read joined with
// its asset's kind and id; the scheduling queries of the download queue; batched commits.
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, sql, sqlInteger, type SqlFragment } from '../sql.ts';

export type DownloadState = 'queued' | 'preparing' | 'downloading' | 'paused' | 'succeeded' | 'failed';
export type DownloadMode = 'file' | 'mp4' | 'hls';

/** A download joined with the asset it fetches (the one row type of the table). */
export interface DownloadRow {
  id: number;
  asset_seq: number;
  asset_kind: 'image' | 'video';
  asset_id: string;
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

const SELECT = sql`SELECT d.id, d.asset_seq, a.kind AS asset_kind, a.id AS asset_id, d.url, d.dest, d.state,
  d.prepare_percent, d.bytes_done, d.bytes_total, d.etag, d.last_modified, d.attempts, d.next_attempt_at, d.error,
  d.created_at, d.updated_at, d.mode, d.content_type, d.error_code
  FROM downloads d JOIN assets a ON a.seq = d.asset_seq`;

const ACTIVE = sql`('queued', 'preparing', 'downloading')`;
/** Not finished: active, or paused by the user. */
const UNFINISHED = sql`('queued', 'preparing', 'downloading', 'paused')`;

export class DownloadsRepo {
  readonly #q: StatementCache;
  readonly #me: string;
  /** Rows unclaimed, claimed by this worker, or by a worker no longer registered (see work-claims.ts). */
  readonly #freeForMe: SqlFragment;

  /** `me`: this process's worker token; rows another live worker holds are never due here. */
  constructor(db: BetterSqlite3.Database, me: string) {
    this.#q = new StatementCache(db, 32);
    this.#me = me;
    // NOT EXISTS rather than NOT IN (the same rows: tokens are never NULL): looked up only for a
    // row another worker claimed, where NOT IN lists and filters the workers at every call.
    this.#freeForMe = sql`(d.claimed_by IS NULL OR d.claimed_by = ${me}
      OR NOT EXISTS (SELECT 1 FROM workers w WHERE w.token = d.claimed_by))`;
  }

  getByAsset(assetSeq: number): DownloadRow | undefined {
    return this.#q.get(sql`${SELECT} WHERE d.asset_seq = ${assetSeq}`);
  }

  get(id: number): DownloadRow | undefined {
    return this.#q.get(sql`${SELECT} WHERE d.id = ${id}`);
  }

  /** Queues (or re-queues from scratch) the download of an asset. */
  enqueue(assetSeq: number, mode: DownloadMode, dest: string, url: string | null, now: number): DownloadRow {
    this.#q.run(sql`
      INSERT INTO downloads (asset_seq, url, dest, state, mode, created_at, updated_at)
      VALUES (${assetSeq}, ${url}, ${dest}, 'queued', ${mode}, ${now}, ${now})
      ON CONFLICT (asset_seq) DO UPDATE SET
        url = excluded.url, dest = excluded.dest, state = 'queued', mode = excluded.mode, prepare_percent = NULL,
        bytes_done = 0, bytes_total = NULL, etag = NULL, last_modified = NULL, content_type = NULL,
        attempts = 0, next_attempt_at = NULL, error = NULL, error_code = NULL, updated_at = excluded.updated_at`);
    const row = this.getByAsset(assetSeq);
    if (!row) throw new Error('The download row vanished right after insert');
    return row;
  }

  /** Writes every mutable column of `row` (its updated_at becomes `now`). */
  save(row: DownloadRow, now: number): void {
    row.updated_at = now;
    this.#q.run(sql`
      UPDATE downloads SET url = ${row.url}, dest = ${row.dest}, state = ${row.state},
        prepare_percent = ${row.prepare_percent}, bytes_done = ${row.bytes_done}, bytes_total = ${row.bytes_total},
        etag = ${row.etag}, last_modified = ${row.last_modified}, attempts = ${row.attempts},
        next_attempt_at = ${row.next_attempt_at}, error = ${row.error}, mode = ${row.mode},
        content_type = ${row.content_type}, error_code = ${row.error_code}, updated_at = ${now}
      WHERE id = ${row.id}`);
  }

  /** Only the byte count (the throttled progress write of a running transfer). */
  saveProgress(row: DownloadRow, now: number): void {
    row.updated_at = now;
    this.#q.run(sql`UPDATE downloads SET bytes_done = ${row.bytes_done}, updated_at = ${now} WHERE id = ${row.id}`);
  }

  delete(id: number): void {
    this.#q.run(sql`DELETE FROM downloads WHERE id = ${id}`);
  }

  /**
   * Active rows whose time has come, oldest first. The ids are chosen first, from the active rows'
   * own index in id order (schema 9) with the limit written into the text, so the scan stops after
   * the rows it needs; only those rows are joined and read. (Joining every active row before the
   * sort took 2–4× as long with 200 queued; through the state index every active row's entry was
   * read and sorted, ~2 ms a call with 10,000 queued, asked each time a transfer ends.)
   */
  due(now: number, limit: number): DownloadRow[] {
    return this.#q.all(sql`${SELECT} WHERE d.id IN (SELECT d.id FROM downloads d INDEXED BY downloads_active
      WHERE d.state IN ${ACTIVE} AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= ${now}) AND ${this.#freeForMe}
      ORDER BY d.id LIMIT ${sqlInteger(limit)}) ORDER BY d.id`);
  }

  /**
   * Active rows another live process is working on (this one takes them over if it dies). From
   * the other workers' side: with none registered (one process, the usual case) no download row
   * is read; the scheduler asks at every pump.
   */
  heldElsewhere(): number {
    const row = this.#q.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM workers w CROSS JOIN downloads d ON d.claimed_by = w.token
        WHERE w.token <> ${this.#me} AND d.state IN ${ACTIVE}`,
    );
    return row?.n ?? 0;
  }

  /** The earliest scheduled attempt among active rows (null: nothing scheduled). */
  nextWakeAt(): number | null {
    return (
      this.#q.get<{ at: number | null }>(sql`SELECT min(next_attempt_at) AS at FROM downloads WHERE state IN ${ACTIVE}`)
        ?.at ?? null
    );
  }

  /** Everything unfinished plus what finished since `succeededSince`, newest first. */
  visible(succeededSince: number): DownloadRow[] {
    return this.#q.all(
      sql`${SELECT} WHERE d.state <> 'succeeded' OR d.updated_at >= ${succeededSince} ORDER BY d.id DESC LIMIT 500`,
    );
  }

  inState(state: DownloadState): DownloadRow[] {
    return this.#q.all(sql`${SELECT} WHERE d.state = ${state} ORDER BY d.id`);
  }

  /**
   * The queue's figures (sent with every `downloads:changed` event), derived from the rows in one
   * statement: `waiting` is the unfinished rows (queued, preparing, downloading, paused) that are
   * not `inHand` (this process's transfers and commits in progress), so it is a count of real rows
   * and never below zero; `failed` the failed rows. The totals come from the counts the triggers keep
   * (schema 10), the rows in hand by primary key: a few µs however many rows there are. (Counted
   * from the table, succeeded history made every event read it whole; counted from the state index,
   * ~0.8 ms an event with 10,000 queued. Subtracting the number of transfers by hand went below
   * zero whenever one had already ended — committed, failed or cancelled — but was not let go yet.)
   */
  queueFigures(inHand: readonly number[]): { waiting: number; failed: number } {
    const figures = this.#q.get<{ waiting: number; failed: number }>(
      sql`SELECT
        (SELECT coalesce(sum(n), 0) FROM download_counts WHERE state IN ${UNFINISHED})
          - (SELECT count(*) FROM downloads
             WHERE id IN (SELECT value FROM json_each(${JSON.stringify(inHand)})) AND state IN ${UNFINISHED}) AS waiting,
        coalesce((SELECT n FROM download_counts WHERE state = 'failed'), 0) AS failed`,
    );
    return figures ?? { waiting: 0, failed: 0 };
  }
}
