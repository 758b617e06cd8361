// What the download queue is given by the library (download-queue.ts builds its parts from it).
import type BetterSqlite3 from 'better-sqlite3';
import type { DownloadsChangedInfo } from '../../../contract/ipc/library.ts';
import type { AssetsRepo } from '../../db/repos/assets-repo.ts';
import type { DownloadRow } from '../../db/repos/downloads-repo.ts';
import type { MediaFetch } from '../media/media-http.ts';
import type { LibraryServiceClient } from '../service-port.ts';
import type { MediaLimits } from './media-limits.ts';
import type { PartFs } from './transfer.ts';

export interface DownloadQueueDeps {
  db: BetterSqlite3.Database;
  assets: AssetsRepo;
  /** The current library root (it changes after a move; the queue is paused while moving). */
  root(): string;
  /** The account's folder inside the root: '' (service account) or 'Demo'. */
  area?: string;
  client: LibraryServiceClient;
  concurrency(): number;
  emit(change: DownloadsChangedInfo): void;
  /** After a download is committed (thumbnails, asset events). */
  onSucceeded?(row: DownloadRow): void;
  now?(): number;
  random?(): number;
  /** Progress events at most this often per item (default 250 ms → ≤ 4/s). */
  progressIntervalMs?: number;
  prepareIntervalMs?: number;
  /** Delay before retry number `attempts` (tests shorten it); default the background backoff (api/backoff.ts). */
  retryDelayMs?(attempts: number): number;
  fetch?: MediaFetch;
  fs?: PartFs;
  /** What one media answer may cost (tests shorten them); default DEFAULT_MEDIA_LIMITS. */
  limits?: Partial<MediaLimits>;
  /**
   * Bytes free for the library (tests inject a full disk); null when it cannot be told. Default:
   * statfs of the library folder.
   */
  freeBytes?(root: string): Promise<number | null>;
  logError?(message: string, error: unknown): void;
}
