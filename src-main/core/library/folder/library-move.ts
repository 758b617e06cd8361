// Moving the library folder without losing a file: copy every file (fsynced, through a temporary
// name), verify it by SHA-256 read back from the new disk, switch the setting, then remove the
// old copies. Abortable until the switch; a rerun to the same target skips what was verified;
// a journal in the data folder lets a restart finish the clean-up after a switch.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, statfs, unlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../../contract/errors.ts';
import type { LibraryMoveInfo } from '../../../contract/ipc/library.ts';
import { writeFileDurable } from './durable-fs.ts';
import { isWithin } from './paths.ts';
import { ensureLibraryMarker, LIBRARY_TOP_LEVEL } from './library-marker.ts';

/** Left in the target while a move is under way, so a rerun knows the files there are ours. */
export const MOVE_MARKER = '.atelier-move.json';
const JOURNAL = 'library-move.json';

interface Journal {
  from: string;
  to: string;
  phase: 'copying' | 'switched';
  files?: string[];
  dirs?: string[];
}

export interface MoveOptions {
  from: string;
  to: string;
  dataDir: string;
  signal: AbortSignal;
  /** Points the app at the new folder (settings); called once, after every file is verified. */
  switchTo(to: string): void | Promise<void>;
  onProgress?(info: LibraryMoveInfo): void;
}

const refuse = (message: string): AppError => new AppError({ code: 'invalid_argument', message, field: 'to' });

/** A file-system failure on the way to the new folder, said so the user knows what to do; null: not one of those. */
export function destinationProblem(error: unknown): AppError | null {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'EACCES':
    case 'EPERM':
      return refuse('Atelier may not write to that folder; choose one you can write to, or change its permissions.');
    case 'EROFS':
      return refuse('That folder is on a read-only disk; choose a folder on a disk you can write to.');
    case 'ENOTDIR':
    case 'EEXIST':
      return refuse('Part of that path is a file, not a folder; choose another place.');
    case 'ENOENT':
      return refuse('That place is gone (a disk removed?); reconnect it or choose another folder.');
    case 'ENOSPC':
    case 'EDQUOT':
      return new AppError({
        code: 'disk_full',
        message: "The new folder's disk is full; free some space or choose another disk.",
      });
    default:
      return null;
  }
}

interface Listing {
  /** `mode`: the permission bits, kept on the copy (a 0600 file stays 0600). */
  files: { path: string; size: number; mode: number }[];
  /** Every folder, empty ones included (recreated in the target, removed from the source). */
  dirs: string[];
}

async function listTree(root: string): Promise<Listing> {
  const out: Listing = { files: [], dirs: [] };
  const rel = (full: string): string => relative(root, full).split(sep).join('/');
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      // Only Atelier's own names at the top: whatever else shares the folder is not ours to carry.
      if (dir === root && !LIBRARY_TOP_LEVEL.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        out.dirs.push(rel(full));
        await walk(full);
      } else if (entry.isFile() && !(dir === root && entry.name === MOVE_MARKER)) {
        // Links are not followed or copied: the library never makes them, and one could lead out.
        const info = await stat(full);
        out.files.push({ path: rel(full), size: info.size, mode: info.mode & 0o777 });
      }
    }
  };
  await walk(root);
  return out;
}

async function sha256Of(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, signal ? { signal } : {})) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Copies through `<dest>.moving`, fsyncs, renames; returns the SHA-256 of the bytes read. */
async function copyFileDurable(
  source: string,
  dest: string,
  mode: number,
  signal: AbortSignal,
  onBytes: (n: number) => void,
): Promise<string> {
  await mkdir(dirname(dest), { recursive: true });
  const temporary = `${dest}.moving`;
  const hash = createHash('sha256');
  const counter = new Transform({
    transform(chunk: Buffer, _e, done) {
      hash.update(chunk);
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
  // Created with the source's permissions (never wider while it is being written), then set
  // exactly, since the umask may have narrowed them.
  await pipeline(createReadStream(source), counter, createWriteStream(temporary, { mode }), { signal });
  const handle = await open(temporary, 'r+');
  try {
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, dest);
  return hash.digest('hex');
}

async function isEmptyOrOurs(dir: string, from: string): Promise<boolean> {
  const entries = await readdir(dir).catch(() => null);
  if (entries === null || entries.length === 0) return true;
  const marker = await readFile(join(dir, MOVE_MARKER), 'utf8').catch(() => null);
  if (!marker) return false;
  try {
    return (JSON.parse(marker) as { from?: string }).from === from;
  } catch {
    return false;
  }
}

/** Removes the moved files from the old folder, then its folders (those now empty). */
async function cleanOld(from: string, files: readonly string[], dirs: readonly string[]): Promise<void> {
  for (const file of files) await unlink(join(from, file)).catch(() => undefined);
  // Deepest first; rmdir refuses a folder that still holds something the user put there.
  const deepestFirst = [...dirs].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const dir of deepestFirst) await rmdir(join(from, dir)).catch(() => undefined);
  await rmdir(from).catch(() => undefined);
}

/** Finishes a move whose switch happened but whose clean-up was interrupted (call at start-up). */
export async function finishInterruptedMove(dataDir: string, currentLibraryDir: string): Promise<void> {
  const text = await readFile(join(dataDir, JOURNAL), 'utf8').catch(() => null);
  if (!text) return;
  const journal = JSON.parse(text) as Journal;
  if (journal.phase === 'switched' && resolve(currentLibraryDir) === resolve(journal.to)) {
    await cleanOld(journal.from, journal.files ?? [], journal.dirs ?? []);
    await rm(join(journal.to, MOVE_MARKER), { force: true });
  }
  await rm(join(dataDir, JOURNAL), { force: true });
}

export async function moveLibrary(options: MoveOptions): Promise<LibraryMoveInfo> {
  const from = resolve(options.from);
  const to = resolve(options.to);
  const info: LibraryMoveInfo = {
    state: 'copying',
    from,
    to,
    filesDone: 0,
    filesTotal: 0,
    bytesDone: 0,
    bytesTotal: 0,
    error: null,
  };
  const report = () => options.onProgress?.({ ...info });

  if (to === from) throw refuse('That is already the library folder.');
  if (isWithin(from, to)) throw refuse('The new folder cannot be inside the current library folder.');
  if (isWithin(to, from))
    throw refuse('The current library is inside that folder; choose an empty folder or a new one.');
  if (!(await isEmptyOrOurs(to, from)))
    throw refuse('The new folder is not empty; choose an empty folder or a new one.');

  const listing: Listing = (await stat(from).catch(() => null)) ? await listTree(from) : { files: [], dirs: [] };
  const files = listing.files;
  info.filesTotal = files.length;
  info.bytesTotal = files.reduce((sum, f) => sum + f.size, 0);
  try {
    await mkdir(to, { recursive: true });
    await writeFileDurable(join(to, MOVE_MARKER), JSON.stringify({ from, startedAt: new Date().toISOString() }));
  } catch (error) {
    throw destinationProblem(error) ?? error;
  }
  const space = await statfs(to).catch(() => null);
  if (space && space.bavail * space.bsize < info.bytesTotal) {
    throw new AppError({ code: 'disk_full', message: "The new folder's disk does not have room for the library." });
  }
  await writeFileDurable(
    join(options.dataDir, JOURNAL),
    JSON.stringify({ from, to, phase: 'copying' } satisfies Journal),
  );
  report();

  try {
    for (const dir of listing.dirs) await mkdir(join(to, dir), { recursive: true });
    let lastReport = 0;
    for (const file of files) {
      if (options.signal.aborted) throw new Error('aborted');
      const source = join(from, file.path);
      const dest = join(to, file.path);
      const existing = await stat(dest).catch(() => null);
      let sourceHash: string;
      if (existing?.isFile() && existing.size === file.size) {
        // Copied by an earlier, interrupted run: trust it only if the bytes still match.
        sourceHash = await sha256Of(source, options.signal);
        if ((await sha256Of(dest, options.signal)) !== sourceHash) {
          sourceHash = await copyFileDurable(source, dest, file.mode, options.signal, () => undefined);
        }
        info.bytesDone += file.size;
      } else {
        sourceHash = await copyFileDurable(source, dest, file.mode, options.signal, (n) => {
          info.bytesDone += n;
          if (Date.now() - lastReport > 250) {
            lastReport = Date.now();
            report();
          }
        });
      }
      info.state = 'verifying';
      if ((await sha256Of(dest, options.signal)) !== sourceHash) {
        throw new AppError({
          code: 'internal',
          message: `The copy of ${file.path} does not match the original; nothing was switched.`,
        });
      }
      info.state = 'copying';
      info.filesDone += 1;
      report();
    }
  } catch (error) {
    await rm(join(options.dataDir, JOURNAL), { force: true });
    if (options.signal.aborted) {
      info.state = 'aborted';
      report();
      return info;
    }
    info.state = 'failed';
    const known = error instanceof AppError ? error : destinationProblem(error);
    info.error = known
      ? known.info
      : { code: 'internal', message: `Moving the library failed: ${(error as Error).message}` };
    report();
    throw known ?? new AppError(info.error);
  }

  info.state = 'switching';
  report();
  const moved = files.map((f) => f.path);
  await writeFileDurable(
    join(options.dataDir, JOURNAL),
    JSON.stringify({ from, to, phase: 'switched', files: moved, dirs: listing.dirs } satisfies Journal),
  );
  await ensureLibraryMarker(to);
  await options.switchTo(to);
  info.state = 'cleaning';
  report();
  await cleanOld(from, moved, listing.dirs);
  await rm(join(to, MOVE_MARKER), { force: true });
  await rm(join(options.dataDir, JOURNAL), { force: true });
  info.state = 'done';
  report();
  return info;
}
