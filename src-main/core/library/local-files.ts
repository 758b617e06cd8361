// Local copies as the database sees them: removing one (database first, then the file, so the
// library never lists a file that is gone) and noticing files that vanished behind our back.
import { rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AssetsRepo } from '../db/repos/assets-repo.ts';
import type { AssetRow } from '../db/repos/asset-row.ts';
import type { LocalCopiesRepo } from '../db/repos/local-copies-repo.ts';
import { safeLibraryPath } from './paths.ts';

/** Forgets the local copy in the database, then deletes it (an HLS copy: its whole folder). */
export async function removeLocalCopy(copies: LocalCopiesRepo, root: string, asset: AssetRow): Promise<boolean> {
  if (!asset.local_path) return false;
  const path = await safeLibraryPath(root, asset.local_path).catch(() => null);
  copies.forget(asset.seq);
  if (path) await rm(asset.local_path.endsWith('.m3u8') ? dirname(path) : path, { recursive: true, force: true });
  return true;
}

/**
 * Marks downloaded assets whose file is gone (deleted in a file manager, a folder changed by
 * hand) as remote again. Returns the assets changed. Runs in the background in small batches.
 */
export async function reconcileLocalFiles(
  copies: LocalCopiesRepo,
  assets: AssetsRepo,
  root: string,
  signal?: AbortSignal,
): Promise<AssetRow[]> {
  const rows = copies.downloadedFiles();
  const lost: AssetRow[] = [];
  for (const row of rows) {
    if (signal?.aborted) break;
    const path = row.local_path ? await safeLibraryPath(root, row.local_path).catch(() => null) : null;
    const present = path
      ? await stat(path).then(
          (s) => s.isFile(),
          () => false,
        )
      : false;
    if (!present) {
      assets.setLocalFile(row.seq, { fileState: 'remote', localPath: null, bytes: null, sha256: null });
      const asset = assets.getBySeq(row.seq);
      if (asset) lost.push(asset);
    }
  }
  return lost;
}
