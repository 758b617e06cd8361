// Writing a download row together with what its asset shows: the asset's file_state mirrors the
// download (never 'downloaded': only the commit, download-commits.ts, sets that).
import type BetterSqlite3 from 'better-sqlite3';
import type { AssetsRepo } from '../../db/repos/assets-repo.ts';
import type { DownloadRow, DownloadsRepo } from '../../db/repos/downloads-repo.ts';
import { writeTransaction } from '../../db/write-transaction.ts';

export class DownloadRows {
  readonly #db: BetterSqlite3.Database;
  readonly #assets: AssetsRepo;
  readonly #downloads: DownloadsRepo;
  readonly #now: () => number;

  constructor(db: BetterSqlite3.Database, assets: AssetsRepo, downloads: DownloadsRepo, now: () => number) {
    this.#db = db;
    this.#assets = assets;
    this.#downloads = downloads;
    this.#now = now;
  }

  mirror(row: DownloadRow): void {
    const fileState =
      row.state === 'failed'
        ? 'failed'
        : row.state === 'downloading' || row.state === 'preparing'
          ? 'downloading'
          : 'queued';
    this.#assets.setLocalFile(row.asset_seq, { fileState });
  }

  saveAndMirror(row: DownloadRow): void {
    writeTransaction(this.#db, () => {
      this.#downloads.save(row, this.#now());
      this.mirror(row);
    });
  }
}
