// Small durable-write helpers: data reaches the disk (fsync) before a rename makes it visible.
// Plain descriptors rather than FileHandles: these run once or twice per downloaded file, and a
// FileHandle costs the main thread more than the three calls it wraps.
import { close, fsync, open } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const openFd = promisify(open);
const fsyncFd = promisify(fsync);
const closeFd = promisify(close);

/** Flushes a file (opened with `flags`: 'r+' for a file, 'r' for a directory) to disk. */
export async function fsyncPath(path: string, flags: 'r' | 'r+'): Promise<void> {
  const fd = await openFd(path, flags);
  try {
    await fsyncFd(fd);
  } finally {
    await closeFd(fd);
  }
}

/** Flushes a directory entry (a rename) to disk; a no-op where directories cannot be opened (Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  try {
    await fsyncPath(dir, 'r');
  } catch {
    // Windows cannot open a directory for sync; NTFS journals the rename itself.
  }
}

/** Writes `path` through a temporary sibling, fsynced, then renamed over the target. */
export async function writeFileDurable(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, data);
  await fsyncPath(temporary, 'r+');
  await rename(temporary, path);
}
