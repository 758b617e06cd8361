// Free space for downloads: below MIN_FREE_BYTES the queue starts no transfer (it would only fill
// the disk) and says so instead (queue paused with reason 'disk_full').
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';

export const MIN_FREE_BYTES = 64 * 1024 * 1024;

/** Free bytes where the library is (its nearest existing folder), or null when unknown. */
export async function statfsFreeBytes(root: string): Promise<number | null> {
  for (let dir = root; ; dir = dirname(dir)) {
    try {
      const s = await statfs(dir);
      return s.bavail * s.bsize;
    } catch {
      if (dirname(dir) === dir) return null;
    }
  }
}
