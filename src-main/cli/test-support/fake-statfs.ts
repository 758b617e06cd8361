// Loaded into a CLI subprocess with `--import` (tests only): a disk that is nearly full, for the
// folders under ATELIER_FAKE_DISK_UNDER. Its free space is ATELIER_FAKE_DISK_FREE bytes less what
// the files under that folder take now, so what the library writes comes off it. Every other path
// is the real statfs. The core's `import { statfs } from 'node:fs/promises'` sees the patch through
// syncBuiltinESMExports (built-in modules' ESM exports are live bindings).
import { readdirSync, statSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join, resolve, sep } from 'node:path';

const under = process.env['ATELIER_FAKE_DISK_UNDER'];
const free = Number(process.env['ATELIER_FAKE_DISK_FREE']);

function bytesUnder(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

if (under && Number.isFinite(free)) {
  const root = resolve(under);
  const real = fsPromises.statfs;
  const fake = (async (path: string, options?: { bigint?: boolean }) => {
    const stats = await real(path, options as { bigint: false });
    const target = resolve(String(path));
    if (target !== root && !target.startsWith(root + sep)) return stats;
    const left = Math.max(0, free - bytesUnder(root));
    return { ...stats, bsize: 4096, bavail: Math.floor(left / 4096), bfree: Math.floor(left / 4096) };
  }) as typeof fsPromises.statfs;
  fsPromises.statfs = fake;
  syncBuiltinESMExports();
}
