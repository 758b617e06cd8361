// The bulk-loaded bench library must be the library the app would have made from the same seed:
// same rows, same indexes, same full-text matches, same filter-bar counts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAccountDb } from '../../src-main/core/db/account-db.ts';
import { seedAssets } from '../../src-main/core/db/test-support/seed-assets.ts';
import { LIBRARY_SEED, librarySize, seededLibrary } from './library-seed.ts';

const dir = mkdtempSync(join(tmpdir(), 'atelier-bench-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = (quick = false) => ({
  quick,
  workDir: dir,
  cacheDir: join(dir, 'cache'),
  repoRoot: resolve(import.meta.dirname, '..', '..'),
  log: () => undefined,
});

describe('seededLibrary', () => {
  it('bulk-loads the same library as seeding through the app', () => {
    const count = 1500;
    const bulk = openAccountDb(seededLibrary(ctx(), count), { readonly: true });
    const plain = openAccountDb(join(dir, 'plain.db'));
    seedAssets(plain, count, { seed: LIBRARY_SEED });
    try {
      const read = (sql: string) => [bulk.sqlite.prepare(sql).all(), plain.sqlite.prepare(sql).all()];
      const [bulkRows, plainRows] = read('SELECT * FROM assets ORDER BY seq');
      expect(bulkRows).toHaveLength(count);
      expect(bulkRows).toEqual(plainRows);
      const [bulkIndexes, plainIndexes] = read(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name",
      );
      expect(bulkIndexes).toEqual(plainIndexes);
      const [bulkTriggers, plainTriggers] = read(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
      );
      expect(bulkTriggers).toEqual(plainTriggers);
      const [bulkCounts, plainCounts] = read('SELECT * FROM asset_counts ORDER BY 1, 2, 3, 4, 5, 6');
      expect(bulkCounts).toEqual(plainCounts);
      for (const words of ['sunset beach', 'cinematic', 'imagea', 'fox']) {
        expect(bulk.assets.search(words, 50).map((r) => r.seq)).toEqual(
          plain.assets.search(words, 50).map((r) => r.seq),
        );
      }
      expect(bulk.assets.list({ limit: 200, filter: { offline: true } }).rows).toEqual(
        plain.assets.list({ limit: 200, filter: { offline: true } }).rows,
      );
    } finally {
      bulk.close();
      plain.close();
    }
  });

  it('uses 20,000 assets in quick mode, else ATELIER_BENCH_ASSETS or a million', () => {
    expect(librarySize(ctx(true))).toBe(20_000);
    const before = process.env['ATELIER_BENCH_ASSETS'];
    try {
      delete process.env['ATELIER_BENCH_ASSETS'];
      expect(librarySize(ctx())).toBe(1_000_000);
      process.env['ATELIER_BENCH_ASSETS'] = '100000';
      expect(librarySize(ctx())).toBe(100_000);
      process.env['ATELIER_BENCH_ASSETS'] = '12.5';
      expect(() => librarySize(ctx())).toThrow(/ATELIER_BENCH_ASSETS/);
    } finally {
      if (before === undefined) delete process.env['ATELIER_BENCH_ASSETS'];
      else process.env['ATELIER_BENCH_ASSETS'] = before;
    }
  });
});
