// What makes a folder an Atelier library: a marker file at its root, written when a library opens
// there. An explicit folder a renderer names (browser mode, the CLI) is accepted only when it is
// empty (or not there yet) or carries this marker, so nobody can point the library, and with it
// the media route and "open", at a home folder or `/`. Moves carry only the names below.
import { lstat, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';

export const LIBRARY_MARKER = '.atelier-library';

/** Top-level names of a library (see docs/library.md "Layout on disk"); nothing else is Atelier's. */
export const LIBRARY_TOP_LEVEL: ReadonlySet<string> = new Set([
  'images',
  'videos',
  '.thumbs',
  '.trash',
  'Demo',
  LIBRARY_MARKER,
]);

const MARKER_TEXT = 'This folder is an Atelier library. Atelier moves and serves only its own files here.\n';

export async function ensureLibraryMarker(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, LIBRARY_MARKER), MARKER_TEXT, { flag: 'wx', mode: 0o644 }).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  });
}

/** Not there yet, empty, or an Atelier library (a real marker file, not a link to one). */
export async function isEmptyOrLibrary(dir: string): Promise<boolean> {
  const entries = await readdir(dir).catch((error: unknown) =>
    (error as { code?: string }).code === 'ENOENT' ? [] : null,
  );
  if (entries === null) return false;
  if (entries.length === 0) return true;
  const marker = await lstat(join(dir, LIBRARY_MARKER)).catch(() => null);
  return marker?.isFile() === true;
}
