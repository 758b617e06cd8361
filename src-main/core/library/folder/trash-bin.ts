// The Atelier trash on disk: "Remove local copy" moves the file (an HLS copy: its folder) into the
// account's `.trash` folder inside the library (`<area>/.trash/<its path>`), by a rename on the same
// volume, never a copy. The database row (db/repos/trash-repo.ts) is written before the rename and
// the asset forgets its copy after it, so a crash leaves one of two states the start-up check
// (`reconcile`) settles: a row whose file is not in the trash is dropped (the copy never left, or
// is gone), and a file in `.trash` without a row is removed (its asset left the library, or the
// row was dropped before its file: nothing names it any more, so nothing could restore it).
import { lstat, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '../../../contract/errors.ts';
import { trashExpiresAt } from '../../../contract/ipc/trash.ts';
import type { AssetRow } from '../../db/repos/asset-row.ts';
import type { AssetsRepo } from '../../db/repos/assets-repo.ts';
import type { LocalCopiesRepo } from '../../db/repos/local-copies-repo.ts';
import type { TrashEntryRow, TrashRepo, TrashRow } from '../../db/repos/trash-repo.ts';
import { fsyncDir } from './durable-fs.ts';
import { safeLibraryPath } from './paths.ts';

export const TRASH_DIR = '.trash';

export interface TrashBinDeps {
  trash: TrashRepo;
  copies: LocalCopiesRepo;
  assets: AssetsRepo;
  root(): string;
  /** The account's folder in the library: '' for a service account, 'Demo' for the demo. */
  area: string;
  now(): number;
}

export type RestoreOutcome = 'restored' | 'already-local';

/** What moves as one: a file, or the folder of an HLS copy (its playlist is the recorded path). */
const unitOf = (path: string): string => (path.endsWith('.m3u8') ? dirname(path) : path);

const codeOf = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;

/** Why a rename failed, in words a person can act on. */
function renameTrouble(error: unknown): string {
  switch (codeOf(error)) {
    case 'EACCES':
    case 'EPERM':
      return 'Atelier is not allowed to move it (check the folder’s permissions)';
    case 'EBUSY':
      return 'another program is using it';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the library folder is read-only';
    case 'EXDEV':
      return 'it is on another disk than the library’s trash';
    default:
      return `the file system said ${codeOf(error) ?? 'no'}`;
  }
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null)) !== null;
}

/** The size of a file, or of every file in a folder (an HLS copy). */
async function sizeOf(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await sizeOf(join(path, entry));
  return total;
}

export function createTrashBin(deps: TrashBinDeps) {
  const { trash } = deps;
  const trashRoot = deps.area ? `${deps.area}/${TRASH_DIR}` : TRASH_DIR;
  /** `<area>/images/x.png` → `<area>/.trash/images/x.png`. */
  const trashPathOf = (original: string): string => {
    const inArea = deps.area && original.startsWith(`${deps.area}/`) ? original.slice(deps.area.length + 1) : original;
    return `${trashRoot}/${inArea}`;
  };

  /** Deletes an entry's copy for good, then its row. */
  const discard = async (row: TrashRow): Promise<void> => {
    const root = deps.root();
    const unit = await safeLibraryPath(root, unitOf(row.trash_path)).catch(() => null);
    if (unit) await rm(unit, { recursive: true, force: true });
    trash.remove(row.asset_seq);
  };

  return {
    trashRoot,

    /**
     * Moves an asset's local copy into the trash; the asset then reads as remote. Returns false when
     * it has no copy to move (none recorded, or its file is already gone: the copy is forgotten).
     * A rename that fails leaves the file where it was and throws the reason.
     */
    async put(asset: AssetRow): Promise<boolean> {
      if (!asset.local_path) return false;
      const root = deps.root();
      const source = await safeLibraryPath(root, unitOf(asset.local_path)).catch(() => null);
      if (!source || !(await exists(source))) {
        deps.copies.forget(asset.seq);
        return true;
      }
      const earlier = trash.get(asset.seq);
      if (earlier) await discard(earlier);
      const trashPath = trashPathOf(asset.local_path);
      const target = await safeLibraryPath(root, unitOf(trashPath));
      // Written before the rename: a crash after it is found by reconcile().
      trash.add({
        asset_seq: asset.seq,
        original_path: asset.local_path,
        trash_path: trashPath,
        bytes: asset.bytes ?? (await sizeOf(source)),
        sha256: asset.sha256,
        trashed_at: deps.now(),
      });
      try {
        await mkdir(dirname(target), { recursive: true });
        // Nothing recorded lies there (one path per asset): a leftover of a crash, not a copy anyone can restore.
        await rm(target, { recursive: true, force: true });
        await rename(source, target);
      } catch (error) {
        trash.remove(asset.seq);
        throw new AppError({
          code: codeOf(error) === 'ENOSPC' ? 'disk_full' : 'conflict',
          message: `Could not move ${asset.kind} ${asset.id} to the trash: ${renameTrouble(error)}. Its file stays in the library.`,
        });
      }
      await fsyncDir(dirname(target));
      deps.copies.forget(asset.seq);
      return true;
    },

    /**
     * Puts an entry's copy back where it was and marks its asset downloaded (path, size, digest).
     * An asset downloaded again meanwhile keeps its new copy: the entry and its file are dropped.
     * The caller stops a download in progress first.
     */
    async restore(row: TrashRow): Promise<RestoreOutcome> {
      const asset = deps.assets.getBySeq(row.asset_seq);
      if (asset?.file_state === 'downloaded') {
        await discard(row);
        return 'already-local';
      }
      const root = deps.root();
      const source = await safeLibraryPath(root, unitOf(row.trash_path));
      if (!(await exists(source))) {
        trash.remove(row.asset_seq);
        throw new AppError({
          code: 'not_found',
          message: 'Its file is no longer in the trash (deleted outside Atelier); download it again instead.',
        });
      }
      const target = await safeLibraryPath(root, unitOf(row.original_path));
      try {
        await mkdir(dirname(target), { recursive: true });
        // No copy is recorded there (the asset is not downloaded): whatever lies there is a leftover.
        await rm(target, { recursive: true, force: true });
        await rename(source, target);
      } catch (error) {
        throw new AppError({
          code: codeOf(error) === 'ENOSPC' ? 'disk_full' : 'conflict',
          message: `Could not put it back: ${renameTrouble(error)}. It stays in the trash.`,
        });
      }
      await fsyncDir(dirname(target));
      trash.restored(row);
      return 'restored';
    },

    /** Deletes these entries' copies for good; returns the bytes freed. */
    async empty(rows: readonly TrashRow[]): Promise<number> {
      let bytes = 0;
      for (const row of rows) {
        await discard(row);
        bytes += row.bytes;
      }
      return bytes;
    },

    /** Entries past the keeping time (contract/ipc/trash.ts) go for good; returns them. */
    async purgeExpired(): Promise<TrashEntryRow[]> {
      const now = deps.now();
      const expired = trash.entries().filter((row) => trashExpiresAt(row.trashed_at) <= now);
      for (const row of expired) await discard(row);
      return expired;
    },

    /**
     * The start-up check (see the top of this file): rows whose file is not in the trash are
     * dropped; an asset still recorded at a path its copy left (a crash between the rename and the
     * commit) forgets it; files in this account's `.trash` that no row names are removed.
     * Returns the assets whose copy was forgotten and whether anything changed.
     */
    async reconcile(): Promise<{ forgotten: AssetRow[]; changed: boolean }> {
      const root = deps.root();
      const forgotten: AssetRow[] = [];
      let changed = false;
      const recorded = new Set<string>();
      for (const row of trash.entries()) {
        const unit = await safeLibraryPath(root, unitOf(row.trash_path)).catch(() => null);
        if (!unit || !(await exists(unit))) {
          trash.remove(row.asset_seq);
          changed = true;
          continue;
        }
        recorded.add(unit);
        const asset = deps.assets.getBySeq(row.asset_seq);
        if (asset?.file_state === 'downloaded' && asset.local_path === row.original_path) {
          const original = await safeLibraryPath(root, unitOf(row.original_path)).catch(() => null);
          if (!original || !(await exists(original))) {
            deps.copies.forget(asset.seq);
            forgotten.push(asset);
          }
        }
      }
      const walk = async (dir: string): Promise<void> => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          const full = join(dir, entry.name);
          if (entry.isDirectory() && !entry.name.endsWith('.hls')) {
            await walk(full);
          } else if (!recorded.has(full)) {
            await rm(full, { recursive: true, force: true });
            changed = true;
          }
        }
      };
      const top = await safeLibraryPath(root, trashRoot).catch(() => null);
      if (top) await walk(top);
      return { forgotten, changed };
    },
  };
}

export type TrashBin = ReturnType<typeof createTrashBin>;
