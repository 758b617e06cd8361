// Local copies of assets as the library sees them: forgetting one (the asset reads as remote
// again and its finished download row goes with it), the downloaded files to check on disk,
// and the downloaded assets newest first, to find those still without a thumbnail of their own.
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, sql } from '../sql.ts';
import { writeTransaction } from '../write-transaction.ts';
import type { AssetsRepo } from './assets-repo.ts';

export interface DownloadedFile {
  seq: number;
  local_path: string | null;
  thumb_path: string | null;
}

/** A downloaded asset in newest-first order, with its thumbnail (none, the service's poster, or its own). */
export interface DownloadedByTime {
  seq: number;
  created_at: number;
  thumb_path: string | null;
}

/** Where a newest-first walk over the downloaded assets goes on: older than this one. */
export type TimeCursor = Pick<DownloadedByTime, 'seq' | 'created_at'>;

export class LocalCopiesRepo {
  readonly #db: BetterSqlite3.Database;
  readonly #q: StatementCache;
  readonly #assets: AssetsRepo;

  constructor(db: BetterSqlite3.Database, assets: AssetsRepo) {
    this.#db = db;
    this.#q = new StatementCache(db, 8);
    this.#assets = assets;
  }

  /** The asset is remote again; its finished download row goes too (one transaction). */
  forget(seq: number): void {
    writeTransaction(this.#db, () => {
      this.#assets.setLocalFile(seq, { fileState: 'remote', localPath: null, bytes: null, sha256: null });
      this.#q.run(sql`DELETE FROM downloads WHERE asset_seq = ${seq} AND state = 'succeeded'`);
    });
  }

  /** Downloaded files after `afterSeq`, in seq order, `limit` at a time (a million need not be read at once). */
  downloadedFiles(afterSeq: number, limit: number): DownloadedFile[] {
    return this.#q.all<DownloadedFile>(sql`
      SELECT seq, local_path, thumb_path FROM assets
      WHERE file_state = 'downloaded' AND seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`);
  }

  /** These assets' files are gone: they read as remote again (one transaction for all). */
  markGone(seqs: readonly number[]): void {
    writeTransaction(this.#db, () => {
      for (const seq of seqs)
        this.#assets.setLocalFile(seq, { fileState: 'remote', localPath: null, bytes: null, sha256: null });
    });
  }

  /**
   * Downloaded assets, newest first, `limit` at a time older than `before` (null: from the newest),
   * along the downloaded assets' own index. Those lacking a thumbnail are picked out by the
   * library (no thumbnail, or the service's poster): one query for them walked every downloaded row of a million-asset
   * library at once (~0.6 s) when they were few.
   */
  downloadedNewestFirst(before: TimeCursor | null, limit: number): DownloadedByTime[] {
    return before === null
      ? this.#q.all<DownloadedByTime>(sql`
          SELECT seq, created_at, thumb_path FROM assets WHERE file_state = 'downloaded'
          ORDER BY created_at DESC, seq DESC LIMIT ${limit}`)
      : this.#q.all<DownloadedByTime>(sql`
          SELECT seq, created_at, thumb_path FROM assets
          WHERE file_state = 'downloaded' AND (created_at, seq) < (${before.created_at}, ${before.seq})
          ORDER BY created_at DESC, seq DESC LIMIT ${limit}`);
  }
}
