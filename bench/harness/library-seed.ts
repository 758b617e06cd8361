// Seeded libraries (the db test-support seed: job bursts, models, likes, offline files) kept in the
// bench cache between runs, because seeding 100,000 assets through the triggers takes about a minute.
// The cache key covers the migrations and the seed code, so a schema or index change re-seeds.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openCache } from '../../src-main/core/db/cache.ts';
import { seedAssets } from '../../src-main/core/db/test-support/seed-assets.ts';
import type { BenchContext } from './context.ts';

export const LIBRARY_SEED = 2024;

function codeHash(repoRoot: string): string {
  const hash = createHash('sha256');
  const migrations = join(repoRoot, 'src-main/core/db/migrations');
  for (const name of readdirSync(migrations)
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
    .sort()) {
    hash.update(name).update(readFileSync(join(migrations, name)));
  }
  for (const file of ['src-main/core/db/test-support/seed-assets.ts', 'src-main/core/db/database.ts']) {
    hash.update(file).update(readFileSync(join(repoRoot, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** Path of a private copy (in the scenario's work folder) of a library of `count` seeded assets. */
export function seededLibraryCopy(ctx: BenchContext, count: number, name = 'atelier.db'): string {
  const cached = join(ctx.cacheDir, `library-${count}-${LIBRARY_SEED}-${codeHash(ctx.repoRoot)}.db`);
  if (!existsSync(cached)) {
    mkdirSync(ctx.cacheDir, { recursive: true });
    const started = Date.now();
    ctx.log(`seeding a ${count.toLocaleString('en-US')}-asset library (cached for later runs)…`);
    const building = `${cached}.building-${process.pid}`;
    const cache = openCache(building);
    try {
      seedAssets(cache, count, { seed: LIBRARY_SEED });
      // One self-contained file: fold the WAL back in before copying it around.
      cache.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      cache.close();
    }
    rmSync(`${building}-wal`, { force: true });
    rmSync(`${building}-shm`, { force: true });
    renameSync(building, cached);
    ctx.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const copy = join(ctx.workDir, name);
  copyFileSync(cached, copy);
  return copy;
}
