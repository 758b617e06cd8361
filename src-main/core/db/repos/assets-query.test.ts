import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../contract/errors.ts';
import type { AccountDb } from '../account-db.ts';
import { seedAssets, type SeedSummary } from '../test-support/seed-assets.ts';
import { openMemoryCache } from '../test-support/test-cache.ts';
import type { AssetRow } from './asset-row.ts';
import { shapeCode } from '../../../contract/shape-code.ts';
import { RANKABLE_MATCHES, type CoreAssetFilter } from './assets-query.ts';

let cache: AccountDb;
let seeded: SeedSummary;
beforeEach(() => {
  cache = openMemoryCache();
  seeded = seedAssets(cache, 3000, { seed: 7 });
});
afterEach(() => cache.close());

const allRows = (): AssetRow[] =>
  cache.sqlite.prepare('SELECT * FROM assets ORDER BY created_at DESC, seq DESC').all() as AssetRow[];

function readAll(filter: CoreAssetFilter, sort: 'newest' | 'oldest' = 'newest', limit = 97): AssetRow[] {
  const out: AssetRow[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10_000; pages += 1) {
    const page = cache.assets.list({ filter, sort, cursor, limit });
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    out.push(...page.rows);
    if (!page.nextCursor) return out;
    expect(page.rows.length).toBe(limit);
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

describe('AssetsRepo.list (keyset pages)', () => {
  it('walks the whole library without gaps or repeats, both ways, despite equal timestamps', () => {
    const expected = allRows().map((r) => r.seq);
    const ties = new Set(allRows().map((r) => r.created_at)).size;
    expect(ties).toBeLessThan(expected.length); // the seed makes bursts that share a time
    expect(readAll({}).map((r) => r.seq)).toEqual(expected);
    expect(readAll({}, 'oldest').map((r) => r.seq)).toEqual([...expected].reverse());
  });

  it('is not thrown off by assets inserted between two pages', () => {
    const first = cache.assets.list({ limit: 100 });
    seedAssets(cache, 50, { seed: 99, idPrefix: 'late', newest: Date.parse('2030-01-01T00:00:00Z'), spanMs: 1000 });
    const rest = readAll({}).filter((r) => !r.id.startsWith('late'));
    const second = cache.assets.list({ limit: 100, cursor: first.nextCursor });
    expect(second.rows.map((r) => r.seq)).toEqual(rest.slice(100, 200).map((r) => r.seq));
  });

  const filters: [string, CoreAssetFilter, (r: AssetRow) => boolean][] = [
    ['kind', { kind: 'video' }, (r) => r.kind === 'video'],
    ['origin', { origin: 'uploaded' }, (r) => r.origin === 'uploaded'],
    ['model', { modelId: 'imagec-2' }, (r) => r.model_id === 'imagec-2'],
    ['offline', { offline: true }, (r) => r.file_state === 'downloaded'],
    ['online only', { offline: false }, (r) => r.file_state !== 'downloaded'],
    ['liked', { liked: true }, (r) => r.liked === 1],
    [
      'liked videos of a model',
      { liked: true, kind: 'video', modelId: 'videod-1.5' },
      (r) => r.liked === 1 && r.kind === 'video' && r.model_id === 'videod-1.5',
    ],
    [
      'date range',
      { dateFrom: '2025-03-01T00:00:00Z', dateTo: '2025-04-01T00:00:00Z' },
      (r) => r.created_at >= Date.parse('2025-03-01') && r.created_at < Date.parse('2025-04-01'),
    ],
    ['type', { type: 'modelInput' }, (r) => r.type === 'modelInput'],
    ['square shape', { orientation: 'square' }, (r) => r.width !== null && r.width === r.height],
    [
      'landscape videos',
      { orientation: 'landscape', kind: 'video' },
      (r) => r.kind === 'video' && (r.width ?? 0) > (r.height ?? 0),
    ],
  ];
  for (const [name, filter, keep] of filters) {
    it(`filters by ${name} and pages through exactly the matching rows`, () => {
      const expected = allRows()
        .filter(keep)
        .map((r) => r.seq);
      expect(expected.length).toBeGreaterThan(0);
      expect(readAll(filter).map((r) => r.seq)).toEqual(expected);
    });
  }

  it('filters by text with prefix words, together with other filters', () => {
    const words = (r: AssetRow) => (r.prompt ?? '').toLowerCase().split(' ');
    const expected = allRows().filter(
      (r) => words(r).some((w) => w.startsWith('light')) && words(r).some((w) => w.startsWith('gard')),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(readAll({ query: 'Light  GARD' }).map((r) => r.seq)).toEqual(expected.map((r) => r.seq));
    const videos = expected.filter((r) => r.kind === 'video').map((r) => r.seq);
    expect(readAll({ query: 'light gard', kind: 'video' }).map((r) => r.seq)).toEqual(videos);
  });

  it('uses the same plan-independent result for broad and narrow text queries', () => {
    const broad = allRows().filter((r) => (r.prompt ?? '').split(' ').some((w) => w.startsWith('st')));
    expect(broad.length).toBeGreaterThan(1000); // large enough to take the date-order plan
    expect(readAll({ query: 'st' }, 'newest', 500).map((r) => r.seq)).toEqual(broad.map((r) => r.seq));
  });

  it('returns nothing for a query without searchable words, and rejects a bad or foreign cursor', () => {
    expect(cache.assets.list({ filter: { query: '"*) OR (' }, limit: 10 }).rows).toEqual([]);
    const page = cache.assets.list({ limit: 10 });
    expect(() => cache.assets.list({ limit: 10, cursor: 'garbage' })).toThrow(AppError);
    expect(() => cache.assets.list({ limit: 10, cursor: page.nextCursor, sort: 'oldest' })).toThrow(/cursor/);
  });
});

describe('AssetsRepo.layout (a view mapped without its items)', () => {
  /** Every page of a view as `layout` maps it, call after call. */
  function mapAll(filter: CoreAssetFilter, sort: 'newest' | 'oldest', pageSize: number, pages: number) {
    const mapped: { cursor: string | null; shapes: number[] }[] = [];
    let cursor: string | null = null;
    for (let calls = 0; calls < 1000; calls += 1) {
      const layout = cache.assets.layout({ filter, sort, cursor, pages, pageSize });
      mapped.push(...layout.pages.map((p) => ({ cursor: p.cursor, shapes: [...p.shapes] })));
      if (!layout.nextCursor) return mapped;
      cursor = layout.nextCursor;
    }
    throw new Error('mapping did not end');
  }

  for (const [name, filter, sort] of [
    ['the whole library', {}, 'newest'],
    ['the oldest first', {}, 'oldest'],
    ['videos', { kind: 'video' }, 'newest'],
    ['liked ones', { liked: true }, 'newest'],
    ['a model', { modelId: 'imagea' }, 'oldest'],
  ] as [string, CoreAssetFilter, 'newest' | 'oldest'][]) {
    it(`maps ${name}: each page's cursor fetches exactly the items whose shapes it gave`, () => {
      const mapped = mapAll(filter, sort, 97, 4);
      const rows = readAll(filter, sort, 97);
      expect(rows.length).toBeGreaterThan(97);
      expect(mapped.flatMap((p) => p.shapes)).toEqual(rows.map((r) => shapeCode(r.width, r.height)));
      for (const page of [mapped[0]!, mapped[1]!, mapped.at(-1)!]) {
        const fetched = cache.assets.list({ filter, sort, cursor: page.cursor, limit: page.shapes.length });
        expect(fetched.rows.map((r) => shapeCode(r.width, r.height))).toEqual(page.shapes);
      }
      expect(mapped.slice(0, -1).every((p) => p.shapes.length === 97)).toBe(true);
    });
  }

  it('gives code 0 to an asset of unknown size and nothing for a query without words', () => {
    cache.sqlite.prepare('UPDATE assets SET width = NULL WHERE seq = (SELECT max(seq) FROM assets)').run();
    const newest = cache.assets.list({ limit: 3000 }).rows.findIndex((r) => r.width === null);
    expect(mapAll({}, 'newest', 500, 10).flatMap((p) => p.shapes)[newest]).toBe(0);
    expect(cache.assets.layout({ filter: { query: '"*) OR (' }, pages: 2, pageSize: 10 })).toEqual({
      pages: [],
      nextCursor: null,
    });
  });

  it('reads only an index for the library and its kinds (no row lookups)', () => {
    for (const where of ["a.origin = 'generated'", "a.kind = 'video' AND a.origin = 'generated'"]) {
      const plan = cache.sqlite
        .prepare(
          `EXPLAIN QUERY PLAN SELECT a.created_at, a.seq, a.width, a.height FROM assets a WHERE ${where} ORDER BY a.created_at DESC, a.seq DESC`,
        )
        .all() as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toMatch(/COVERING INDEX/);
    }
  });
});

describe('AssetsRepo.search', () => {
  it('finds words as they are typed, folding case and accents', () => {
    const target = allRows().find((r) => r.kind === 'image')!;
    expect(cache.assets.recordGeneration('image', target.id, { prompt: 'Crème brûlée flambé' })).toBe(true);
    for (const typed of ['brul', 'BRULEE', 'crème bRû', 'flamb']) {
      expect(cache.assets.search(typed, 20).map((r) => r.id)).toContain(target.id);
    }
  });

  it('ranks prompt matches above matches only in other fields', () => {
    const [one, two] = allRows().filter((r) => r.kind === 'image');
    cache.assets.recordGeneration('image', one!.id, { prompt: 'zebracorn in a meadow', params: { note: 'x' } });
    cache.assets.recordGeneration('image', two!.id, { prompt: 'a meadow', params: { style: 'zebracorn' } });
    expect(cache.assets.search('zebracorn', 10).map((r) => r.id)).toEqual([one!.id, two!.id]);
    expect(cache.assets.search('zebracorn', 10, { kind: 'video' })).toEqual([]);
    expect(cache.assets.search('x', 10)).toEqual([]); // one letter is not searched yet
  });
  it(`ranks up to ${RANKABLE_MATCHES - 1} matches by relevance; a broader query returns the newest matches`, () => {
    const rows = allRows(); // newest first
    const setPrompt = cache.sqlite.prepare('UPDATE assets SET prompt = ? WHERE seq = ?');
    // The oldest match is the best one (the word alone, twice); the others bury it in a long prompt.
    const best = rows.at(-1)!;
    setPrompt.run('quokka quokka', best.seq);
    const others = rows.slice(0, RANKABLE_MATCHES - 2);
    for (const row of others) setPrompt.run(`a quokka ${row.prompt ?? 'in a meadow at dawn'}`, row.seq);
    const ranked = cache.assets.search('quokka', 20);
    expect(ranked[0]!.id).toBe(best.id);
    expect(ranked).toHaveLength(20);

    // One match more reaches the limit: the newest matches, in library order, are returned instead.
    setPrompt.run('quokka', rows[RANKABLE_MATCHES]!.seq);
    const newest = cache.assets.search('quokka', 20);
    const expected = cache.assets.list({ filter: { query: 'quokka' }, limit: 20 }).rows;
    expect(newest.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(newest.map((r) => r.id)).not.toContain(best.id);
    expect(newest.map((r) => r.id)).toEqual(others.slice(0, 20).map((r) => r.id));
  });
});

describe('AssetsRepo.counts', () => {
  it('matches the seeded library and follows later changes', () => {
    const counts = cache.assets.counts();
    expect(counts).toMatchObject({
      total: seeded.inserted,
      images: seeded.images,
      videos: seeded.videos,
      offline: seeded.offline,
      liked: seeded.liked,
    });
    expect(Object.fromEntries(counts.byModel.map((m) => [m.modelId, m.count]))).toEqual(seeded.byModel);
    expect(cache.assets.counts('uploaded').total).toBe(seeded.uploaded);

    const row = allRows().find((r) => r.file_state === 'remote')!;
    cache.assets.setLocalFile(row.seq, { fileState: 'downloaded' });
    cache.assets.delete(row.kind, row.id);
    const after = cache.assets.counts();
    expect(after.total).toBe(seeded.inserted - 1);
    expect(after.offline).toBe(seeded.offline);
  });
});
