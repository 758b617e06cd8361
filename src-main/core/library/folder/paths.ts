// Library path safety: file names come from sanitised ids (never raw server strings) and every
// path is resolved and checked to stay inside the library root, symlinks included.
import { createHash } from 'node:crypto';
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AppError } from '../../../contract/errors.ts';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_NAME_LENGTH = 96;
/** Names Windows refuses whatever the extension (a library folder may be copied there). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

const shortHash = (text: string, length: number): string =>
  createHash('sha256').update(text).digest('hex').slice(0, length);

/**
 * A file-name stem for a server id. Ids made of [A-Za-z0-9._-] are kept as they are (readable);
 * anything else (slashes, dots only, unicode, too long, reserved) becomes `id-<hash>`. Ids with
 * capitals get a hash suffix too, so `Ab` and `ab` stay distinct on case-insensitive disks.
 */
export function safeNameForId(id: string): string {
  const usable =
    SAFE_NAME.test(id) &&
    id.length <= MAX_NAME_LENGTH &&
    !id.endsWith('.') &&
    !id.includes('..') &&
    !WINDOWS_RESERVED.test(id);
  if (!usable) return `id-${shortHash(id, 32)}`;
  return /[A-Z]/.test(id) ? `${id}-${shortHash(id, 8)}` : id;
}

/** True when `candidate` (absolute, resolved) is `root` itself or below it. */
export function isWithin(root: string, candidate: string): boolean {
  const rel = relative(resolve(root), resolve(candidate));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const outside = (what: string): AppError =>
  new AppError({ code: 'invalid_argument', message: `Refused: ${what} is outside the library folder.` });

/**
 * Resolves a library-relative path (as stored in the database or asked for by a URL) to an
 * absolute path inside `root`. Absolute inputs, `..` escapes and NUL bytes are refused.
 * This is the lexical check; `assertNoSymlinkEscape` is the one for paths that exist.
 */
export function resolveInLibrary(root: string, relativePath: string): string {
  if (relativePath.includes('\0') || relativePath === '') throw outside('an empty or invalid path');
  const normalised = relativePath.replaceAll('\\', '/');
  if (isAbsolute(relativePath) || normalised.startsWith('/') || /^[A-Za-z]:/.test(normalised))
    throw outside('an absolute path');
  const full = resolve(root, normalised);
  if (!isWithin(root, full) || full === resolve(root)) throw outside(`"${relativePath.slice(0, 80)}"`);
  return full;
}

/** The library-relative form (forward slashes) of an absolute path inside `root`. */
export function toLibraryRelative(root: string, absolutePath: string): string {
  if (!isWithin(root, absolutePath)) throw outside('the path');
  return relative(resolve(root), resolve(absolutePath)).split(sep).join('/');
}

/**
 * Follows symlinks of an existing path (or its nearest existing parent) and refuses it when the
 * real location leaves the real library root, so a planted link cannot expose other files.
 */
export async function assertNoSymlinkEscape(root: string, absolutePath: string): Promise<void> {
  const realRoot = await realpath(root).catch(() => null);
  // Nothing of the library exists yet: no link inside it can lead anywhere.
  if (realRoot === null) return;
  let probe = resolve(absolutePath);
  for (;;) {
    try {
      await lstat(probe);
      break;
    } catch {
      // Only what lies inside the root can be a planted link; the root itself exists.
      probe = resolve(probe, '..');
    }
  }
  const real = await realpath(probe);
  if (!isWithin(realRoot, real)) throw outside('a linked location');
}

/** Lexical + symlink check in one step, for paths about to be read or written. */
export async function safeLibraryPath(root: string, relativePath: string): Promise<string> {
  const full = resolveInLibrary(root, relativePath);
  await assertNoSymlinkEscape(root, full);
  return full;
}
