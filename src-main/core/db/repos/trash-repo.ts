// The Atelier trash (schema 16): one row per asset whose local copy lies in the library's `.trash`
// folder. The row is written before the file moves and removed after it leaves (restored, emptied,
// purged), so the start-up check can tell a half-done move from a finished one.
import type BetterSqlite3 from 'better-sqlite3';
import type { AssetKind } from '../record-fields.ts';
import type { AssetsRepo } from './assets-repo.ts';
import { StatementCache, sql } from '../sql.ts';
import { writeTransaction } from '../write-transaction.ts';

export interface TrashRow {
  asset_seq: number;
  /** The asset's local_path before it was trashed (library-relative). */
  original_path: string;
  /** Where the copy lies now (library-relative, under `.trash/`). */
  trash_path: string;
  bytes: number;
  sha256: string | null;
  /** Epoch ms. */
  trashed_at: number;
}

/** A row with the asset it belongs to. */
export interface TrashEntryRow extends TrashRow {
  kind: AssetKind;
  id: string;
}

export interface TrashTotals {
  count: number;
  bytes: number;
}

export class TrashRepo {
  readonly #db: BetterSqlite3.Database;
  readonly #q: StatementCache;
  readonly #assets: AssetsRepo;

  constructor(db: BetterSqlite3.Database, assets: AssetsRepo) {
    this.#db = db;
    this.#q = new StatementCache(db, 12);
    this.#assets = assets;
  }

  /** Records a copy about to move into the trash (before the rename); replaces an earlier entry of the asset. */
  add(row: TrashRow): void {
    this.#q.run(sql`
      INSERT OR REPLACE INTO trash (asset_seq, original_path, trash_path, bytes, sha256, trashed_at)
      VALUES (${row.asset_seq}, ${row.original_path}, ${row.trash_path}, ${row.bytes}, ${row.sha256}, ${row.trashed_at})`);
  }

  get(seq: number): TrashRow | undefined {
    return this.#q.get<TrashRow>(sql`SELECT * FROM trash WHERE asset_seq = ${seq}`);
  }

  /** Every entry with its asset, newest first (or only these assets'). */
  entries(seqs?: readonly number[]): TrashEntryRow[] {
    const only = seqs ? sql`WHERE t.asset_seq IN (SELECT value FROM json_each(${JSON.stringify(seqs)}))` : sql``;
    return this.#q.all<TrashEntryRow>(sql`
      SELECT t.*, a.kind, a.id FROM trash t JOIN assets a ON a.seq = t.asset_seq ${only}
      ORDER BY t.trashed_at DESC, t.asset_seq DESC`);
  }

  /** Entries trashed before `cutoff` (epoch ms): their time is up. */
  olderThan(cutoff: number): TrashEntryRow[] {
    return this.#q.all<TrashEntryRow>(sql`
      SELECT t.*, a.kind, a.id FROM trash t JOIN assets a ON a.seq = t.asset_seq
      WHERE t.trashed_at < ${cutoff} ORDER BY t.trashed_at`);
  }

  totals(): TrashTotals {
    return (
      this.#q.get<TrashTotals>(sql`SELECT count(*) AS count, coalesce(sum(bytes), 0) AS bytes FROM trash`) ?? {
        count: 0,
        bytes: 0,
      }
    );
  }

  /** Every trash path recorded (the start-up check's list of what belongs in `.trash`). */
  paths(): Set<string> {
    return new Set(this.#q.all<{ trash_path: string }>(sql`SELECT trash_path FROM trash`).map((r) => r.trash_path));
  }

  remove(seq: number): boolean {
    return this.#q.run(sql`DELETE FROM trash WHERE asset_seq = ${seq}`) > 0;
  }

  /**
   * The copy is back where it was: the asset is downloaded again with the columns a finished
   * download sets (state, path, size, digest), and its entry goes, in one transaction.
   */
  restored(row: TrashRow): void {
    writeTransaction(this.#db, () => {
      this.#assets.setLocalFile(row.asset_seq, {
        fileState: 'downloaded',
        localPath: row.original_path,
        bytes: row.bytes,
        sha256: row.sha256,
      });
      this.remove(row.asset_seq);
    });
  }
}
