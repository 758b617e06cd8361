// Seeded libraries (the db test-support seed: job bursts, models, likes, offline files) kept in the
// bench cache between runs. The cache key covers the migrations and the seed code, so a schema or
// index change re-seeds.
// Seeding is bulk-loaded: one transaction, no syncs, the assets table's secondary indexes
// dropped during the inserts and rebuilt after (a sort per index instead of a million random B-tree
// inserts). The triggers stay, so the full-text index and the filter-bar counts are filled by the
// schema's own code. The result holds the same rows and index entries as seeding through the app.
import { createHash } from 'node:crypto';
import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openAccountDb } from '../../src-main/core/db/account-db.ts';
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

/** The library size of scenarios 3 and 5: 20,000 in quick mode, else ATELIER_BENCH_ASSETS or 1,000,000. */
export const FULL_LIBRARY = 1_000_000;
export function librarySize(ctx: BenchContext): number {
  if (ctx.quick) return 20_000;
  const asked = Number(process.env['ATELIER_BENCH_ASSETS'] ?? FULL_LIBRARY);
  if (!Number.isInteger(asked) || asked < 1000) throw new Error('ATELIER_BENCH_ASSETS must be a whole number ≥ 1000');
  return asked;
}

const FTS_TRIGGER = 'assets_fts_after_insert';

/**
 * The full-text trigger's INSERT … VALUES (… new.x …) as one INSERT … SELECT (… a.x …) FROM assets a
 * over every row in rowid order: the same text indexed, by the schema's own expression.
 */
export function triggerAsBulkInsert(triggerSql: string): string {
  const body = triggerSql.slice(triggerSql.indexOf('INSERT INTO'), triggerSql.lastIndexOf('END')).trim();
  const values = body.replace(/;$/, '').match(/^(INSERT INTO [^(]+\([^)]*\))\s*VALUES\s*\(([\s\S]*)\)$/);
  if (!values) throw new Error(`unexpected full-text trigger: ${triggerSql}`);
  return `${values[1]} SELECT ${values[2]?.replace(/\bnew\./g, 'a.')} FROM assets a ORDER BY a.seq`;
}

/** Path of the cached seeded library of `count` assets (built on first use; never written to after). */
export function seededLibrary(ctx: BenchContext, count: number): string {
  const cached = join(ctx.cacheDir, `library-${count}-${LIBRARY_SEED}-${codeHash(ctx.repoRoot)}.db`);
  if (existsSync(cached)) return cached;
  mkdirSync(ctx.cacheDir, { recursive: true });
  const started = Date.now();
  ctx.log(`seeding a ${count.toLocaleString('en-US')}-asset library (cached for later runs)…`);
  const building = `${cached}.building-${process.pid}`;
  const cache = openAccountDb(building);
  try {
    const db = cache.sqlite;
    // A throwaway file until the rename: no syncs, and a page cache the whole library fits in (taken
    // as used): once a million rows' full-text index outgrows the cache, every insert pages
    // segments in and out and seeding slows down several times over.
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -4194304');
    const indexes = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'assets' AND sql IS NOT NULL")
      .all() as { name: string; sql: string }[];
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
    // The full-text trigger costs more per row the larger the index grows (quadratic over a million
    // inserts): it is dropped for the inserts and its own statement run once over every row after.
    const fts = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").get(FTS_TRIGGER) as
      { sql: string } | undefined;
    if (fts) db.exec(`DROP TRIGGER ${FTS_TRIGGER}`);
    seedAssets(cache, count, { seed: LIBRARY_SEED });
    if (fts) {
      db.exec(triggerAsBulkInsert(fts.sql));
      db.exec(fts.sql);
    }
    for (const index of indexes) db.exec(index.sql);
  } finally {
    cache.close();
  }
  rmSync(`${building}-wal`, { force: true });
  rmSync(`${building}-shm`, { force: true });
  renameSync(building, cached);
  ctx.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return cached;
}

/** Path of a private copy (in the scenario's work folder) of a library of `count` seeded assets. */
export function seededLibraryCopy(ctx: BenchContext, count: number, name = 'atelier.db'): string {
  const copy = join(ctx.workDir, name);
  // A reflink where the file system offers one (instant), else a plain copy.
  copyFileSync(seededLibrary(ctx, count), copy, constants.COPYFILE_FICLONE);
  return copy;
}
