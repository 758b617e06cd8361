// The library folders downloads write into, created and checked once per queue rather than once
// per file: no link along the way may lead out of the library. Each file's own path is then
// checked with one lstat (a planted link there is refused too). A folder is checked again after
// a failure in it (it may have been removed or replaced) and after the library moves.
import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../contract/errors.ts';
import { resolveInLibrary, safeLibraryPath } from '../folder/paths.ts';

export class DownloadFolders {
  readonly #checked = new Set<string>();

  /** The absolute folder for a library-relative one, created and checked. */
  async ensure(root: string, relativeDir: string): Promise<string> {
    const dir = resolveInLibrary(root, relativeDir);
    if (this.#checked.has(dir)) return dir;
    await mkdir(dir, { recursive: true });
    await safeLibraryPath(root, relativeDir);
    this.#checked.add(dir);
    return dir;
  }

  forget(dir: string): void {
    this.#checked.delete(dir);
  }

  clear(): void {
    this.#checked.clear();
  }
}

/**
 * The size of `name` inside a checked folder, -1 when it does not exist. A link there is refused:
 * writing through it could reach any file the user can write.
 */
export async function sizeInFolder(dir: string, name: string): Promise<number> {
  const stats = await lstat(join(dir, name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (stats?.isSymbolicLink())
    throw new AppError({ code: 'invalid_argument', message: 'Refused: a linked file is in the library folder.' });
  return stats ? stats.size : -1;
}
