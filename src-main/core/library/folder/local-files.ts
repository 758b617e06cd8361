// Local copies as the database sees them: noticing files that vanished behind our back. (Removing
// one moves it into the trash: trash-bin.ts.)
import { lstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { AssetRefInfo } from '../../../contract/ipc/library.ts';
import type { AssetsRepo } from '../../db/repos/assets-repo.ts';
import type { LocalCopiesRepo } from '../../db/repos/local-copies-repo.ts';
import { pacer, type PaceOptions } from '../paced-work.ts';
import { resolveInLibrary, safeLibraryPath, toLibraryRelative } from './paths.ts';

/** Files checked between two reads of the database: a read and a commit per batch, never the whole library. */
const CHECK_BATCH = 500;

/**
 * Marks downloaded assets whose file is gone (deleted in a file manager, a folder changed by
 * hand) as remote again. Returns the assets changed. Runs in the background: the downloaded files
 * are read a batch at a time, checked (mostly one lstat each) and each batch's lost files marked in
 * one transaction. The work is paced (paced-work.ts): short slices, each followed by as long a
 * pause and by a quiet moment while the user is served, so at a million assets the check never
 * holds the loop for long nor takes more than half of the process (its file checks are
 * synchronous: one lstat each).
 */
export async function reconcileLocalFiles(
  copies: LocalCopiesRepo,
  assets: AssetsRepo,
  root: string,
  pace: PaceOptions = {},
): Promise<AssetRefInfo[]> {
  const { signal } = pace;
  const lost: AssetRefInfo[] = [];
  const isLibraryFile = fileChecker(root);
  let after = Number.MIN_SAFE_INTEGER;
  const yieldWhenDue = pacer(pace);
  while (!signal?.aborted) {
    const rows = copies.downloadedFiles(after, CHECK_BATCH);
    if (rows.length === 0) break;
    after = rows.at(-1)?.seq ?? after;
    const gone: number[] = [];
    for (const row of rows) {
      if (signal?.aborted) break;
      if (!(await isLibraryFile(row.local_path))) gone.push(row.seq);
      await yieldWhenDue();
    }
    if (signal?.aborted) break;
    if (gone.length > 0) {
      copies.markGone(gone);
      for (const { kind, id } of assets.refsOf(gone)) lost.push({ kind, id });
    }
    await yieldWhenDue();
  }
  return lost;
}

/**
 * The checks of one pass over the library: each folder is checked once for links leading out
 * (`safeLibraryPath`); a file in a checked folder is then one `lstat`, without an exception
 * for a missing one. A link is followed only through the full check.
 */
function fileChecker(root: string): (relative: string | null) => Promise<boolean> {
  const folders = new Map<string, Promise<boolean>>();
  const folderIsSafe = (folder: string): Promise<boolean> => {
    if (folder === resolve(root)) return Promise.resolve(true);
    let known = folders.get(folder);
    if (!known) {
      known = safeLibraryPath(root, toLibraryRelative(root, folder)).then(
        () => true,
        () => false,
      );
      folders.set(folder, known);
    }
    return known;
  };
  return async (relative) => {
    let path: string;
    try {
      path = resolveInLibrary(root, relative ?? '');
    } catch {
      return false;
    }
    if (!(await folderIsSafe(dirname(path)))) return false;
    const found = lstatSync(path, { throwIfNoEntry: false });
    if (!found?.isSymbolicLink()) return found?.isFile() ?? false;
    return safeLibraryPath(root, relative ?? '').then(
      (full) => stat(full).then((s) => s.isFile()),
      () => false,
    );
  };
}
