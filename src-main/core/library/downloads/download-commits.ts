// Group commit of finished downloads. A file is fsynced and renamed into place by its runner;
// then it waits here for the next batch: one fsync per folder the batch renamed into, then one
// transaction saying "downloaded" for every file of the batch and letting go of its claim. While
// other transfers run, a batch gathers for GATHER_MS (and while one is flushed, the next gathers), so files finishing close
// together share the directory fsync and the commit; the last file waits for nothing. A kill
// before the commit leaves the file in place and the row unfinished: the next run sees the file
// and commits it (download-runner.ts).
import type BetterSqlite3 from 'better-sqlite3';
import type { AssetsRepo } from '../../db/repos/assets-repo.ts';
import type { DownloadRow, DownloadsRepo } from '../../db/repos/downloads-repo.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { fsyncDir } from '../folder/durable-fs.ts';

export interface FinishedFile {
  row: DownloadRow;
  bytes: number;
  sha256: string | null;
  /** The folder the file was renamed into (fsynced before the commit); null when nothing was renamed. */
  dir: string | null;
}

/** How long a finished file may wait for others to share its commit (it holds no slot meanwhile). */
export const GATHER_MS = 50;

export interface DownloadCommitsDeps {
  db: BetterSqlite3.Database;
  assets: AssetsRepo;
  downloads: DownloadsRepo;
  now(): number;
  /** Whether other transfers are running (a file finishing soon could join the batch). */
  othersRunning(): boolean;
  /** Lets go of this worker's claim on the row, in the commit's transaction (one write less a file). */
  release(id: number): void;
  /** Default: fsyncDir (tests count the calls). */
  syncDir?(dir: string): Promise<void>;
}

interface Waiting {
  file: FinishedFile;
  resolve(): void;
  reject(error: unknown): void;
}

export class DownloadCommits {
  readonly #deps: DownloadCommitsDeps;
  #waiting: Waiting[] = [];
  #draining = false;

  constructor(deps: DownloadCommitsDeps) {
    this.#deps = deps;
  }

  /** Resolves once the file's folder is fsynced and the database says it is downloaded. */
  commit(file: FinishedFile): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ file, resolve, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  /** Never rejects (#flush settles every file); ends in the same turn as it finds nothing waiting. */
  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      // One turn of the event loop first, so files finishing in the same tick share the batch.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#deps.othersRunning()) await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      while (this.#waiting.length > 0) {
        const batch = this.#waiting;
        this.#waiting = [];
        await this.#flush(batch);
      }
    } finally {
      this.#draining = false;
    }
  }

  async #flush(batch: Waiting[]): Promise<void> {
    const dirs = new Set(batch.flatMap((w) => (w.file.dir === null ? [] : [w.file.dir])));
    const syncDir = this.#deps.syncDir ?? fsyncDir;
    try {
      await Promise.all([...dirs].map((dir) => syncDir(dir)));
    } catch (error) {
      // Not known to be on disk: nothing of the batch may be said downloaded.
      for (const w of batch) w.reject(error);
      return;
    }
    try {
      writeTransaction(this.#deps.db, () => {
        for (const { file } of batch) this.#write(file);
      });
      for (const w of batch) w.resolve();
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One bad row must not fail the others: each on its own, so each gets its own outcome.
      for (const w of batch) {
        try {
          writeTransaction(this.#deps.db, () => this.#write(w.file));
          w.resolve();
        } catch (own) {
          w.reject(own);
        }
      }
    }
  }

  #write({ row, bytes, sha256 }: FinishedFile): void {
    row.state = 'succeeded';
    row.bytes_done = bytes;
    row.bytes_total = bytes;
    row.error = null;
    row.error_code = null;
    row.next_attempt_at = null;
    this.#deps.downloads.save(row, this.#deps.now());
    this.#deps.assets.setLocalFile(row.asset_seq, { fileState: 'downloaded', localPath: row.dest, bytes, sha256 });
    this.#deps.release(row.id);
  }
}
