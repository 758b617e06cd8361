// Correctness at the size the library is designed for; speed is measured by `npm run bench`, not here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAssets, type SeedSummary } from '../test-support/seed-assets.ts';
import type { AccountDb } from '../account-db.ts';
import { openMemoryCache } from '../test-support/test-cache.ts';

const SIZE = 100_000;
let temp: { cache: AccountDb };
let seeded: SeedSummary;

beforeAll(() => {
  temp = { cache: openMemoryCache() };
  seeded = seedAssets(temp.cache, SIZE, { seed: 2024 });
}, 300_000);
afterAll(() => temp.cache.close());

function walk(
  filter: Parameters<typeof temp.cache.assets.list>[0]['filter'],
  limit = 200,
): { seqs: number[]; pages: number } {
  const seqs: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = temp.cache.assets.list({ filter, cursor, limit });
    pages += 1;
    seqs.push(...page.rows.map((r) => r.seq));
    cursor = page.nextCursor;
  } while (cursor && pages < 5_000);
  return { seqs, pages };
}

describe(`a ${SIZE.toLocaleString('en')}-asset library`, () => {
  it('pages through every asset exactly once in library order', () => {
    const { seqs, pages } = walk(undefined);
    expect(seqs.length).toBe(SIZE);
    expect(new Set(seqs).size).toBe(SIZE);
    expect(pages).toBe(SIZE / 200);
    const ordered = temp.cache.sqlite
      .prepare('SELECT seq FROM assets ORDER BY created_at DESC, seq DESC')
      .pluck()
      .all();
    expect(seqs).toEqual(ordered);
  }, 120_000);

  it('pages a filtered view completely and agrees with the counts', () => {
    const counts = temp.cache.assets.counts();
    expect(counts.total).toBe(SIZE);
    expect(walk({ kind: 'video' }).seqs.length).toBe(seeded.videos);
    expect(walk({ offline: true }).seqs.length).toBe(counts.offline);
    expect(walk({ liked: true, kind: 'image' }).seqs.length).toBe(
      temp.cache.sqlite.prepare("SELECT count(*) FROM assets WHERE liked = 1 AND kind = 'image'").pluck().get(),
    );
  }, 120_000);

  it('searches by prefix across the whole library', () => {
    const expected = temp.cache.sqlite
      .prepare("SELECT count(*) FROM assets WHERE ' ' || prompt || ' ' LIKE '% lighth%'")
      .pluck()
      .get() as number;
    expect(expected).toBeGreaterThan(1000);
    expect(walk({ query: 'lighth' }, 500).seqs.length).toBe(expected);
    expect(temp.cache.assets.search('lighthouse', 50)).toHaveLength(50);
  }, 120_000);
});
