// Small durable-write helpers: data reaches the disk (fsync) before a rename makes it visible.
import { open, rename, writeFile } from 'node:fs/promises';

/** Flushes a directory entry (a rename) to disk; a no-op where directories cannot be opened (Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a directory for sync; NTFS journals the rename itself.
  } finally {
    await handle?.close();
  }
}

/** Writes `path` through a temporary sibling, fsynced, then renamed over the target. */
export async function writeFileDurable(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, data);
  const handle = await open(temporary, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}
