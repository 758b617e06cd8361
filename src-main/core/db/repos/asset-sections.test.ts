import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invokeChannels } from '../../../contract/ipc.ts';
import type { AccountDb } from '../account-db.ts';
import { seedAssets } from '../test-support/seed-assets.ts';
import { openMemoryCache } from '../test-support/test-cache.ts';
import type { AssetRow } from './asset-row.ts';
import type { CoreAssetFilter } from './assets-query.ts';
import { assetsHandlers } from '../../handlers/assets.ts';

let cache: AccountDb;
beforeEach(() => {
  cache = openMemoryCache();
  // Two years back from 2026-01-01 (the seed's default), bursts sharing one time.
  seedAssets(cache, 3000, { seed: 11 });
});
afterEach(() => cache.close());

const allRows = (): AssetRow[] =>
  cache.sqlite.prepare('SELECT * FROM assets ORDER BY created_at DESC, seq DESC').all() as AssetRow[];

// Section starts, newest first: a day, a month, a quarter, a year, then everything older (as the
// renderer's list ends: lib/library/date-sections.ts).
const STARTS = [
  Date.parse('2025-12-31T00:00:00Z'),
  Date.parse('2025-12-01T00:00:00Z'),
  Date.parse('2025-09-01T00:00:00Z'),
  Date.parse('2025-01-01T00:00:00Z'),
  Date.parse('2024-06-15T12:00:00Z'),
  Date.parse('2024-06-15T00:00:00Z'),
  Number.MIN_SAFE_INTEGER,
];

/** The counts by hand: each row in the first section whose start is at or before its time. */
function expectedCounts(rows: readonly AssetRow[]): number[] {
  const counts = STARTS.map(() => 0);
  for (const row of rows) {
    const at = STARTS.findIndex((start) => row.created_at >= start);
    counts[at] = (counts[at] as number) + 1;
  }
  return counts;
}

describe('AssetsRepo.sectionCounts (the grid’s date sections)', () => {
  const filters: [string, CoreAssetFilter, (r: AssetRow) => boolean][] = [
    ['no filter', {}, () => true],
    ['images', { kind: 'image' }, (r) => r.kind === 'image'],
    ['videos offline', { kind: 'video', offline: true }, (r) => r.kind === 'video' && r.file_state === 'downloaded'],
    ['uploads', { origin: 'uploaded' }, (r) => r.origin === 'uploaded'],
    ['liked of a model', { liked: true, modelId: 'imagea' }, (r) => r.liked === 1 && r.model_id === 'imagea'],
    [
      'a date range',
      { dateFrom: '2025-03-01T00:00:00Z', dateTo: '2025-10-01T00:00:00Z' },
      (r) => r.created_at >= Date.parse('2025-03-01T00:00:00Z') && r.created_at < Date.parse('2025-10-01T00:00:00Z'),
    ],
  ];

  it.each(filters)('counts each section of the view with the filter (%s)', (_name, filter, keep) => {
    const rows = allRows().filter(keep);
    const counts = cache.assets.sectionCounts(filter, STARTS);
    expect(counts).toEqual(expectedCounts(rows));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(rows.length);
    // Not a trivial answer: the seed spreads the library over several sections.
    expect(counts.filter((n) => n > 0).length).toBeGreaterThan(1);
  });

  it('counts what the pages of the same filter list, with a text query too', () => {
    const filter: CoreAssetFilter = { query: 'sunset', kind: 'image' };
    let listed = 0;
    let cursor: string | null = null;
    do {
      const page = cache.assets.list({ filter, cursor, limit: 500 });
      listed += page.rows.length;
      cursor = page.nextCursor;
    } while (cursor);
    const counts = cache.assets.sectionCounts(filter, STARTS);
    expect(listed).toBeGreaterThan(0);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(listed);
  });

  it('puts a time on a start in that section, and times past the newest start in the first', () => {
    const start = STARTS[1] as number;
    seedAssets(cache, 1, { seed: 3, idPrefix: 'edge', newest: start, spanMs: 0 });
    seedAssets(cache, 1, { seed: 4, idPrefix: 'ahead', newest: Date.parse('2031-01-01T00:00:00Z'), spanMs: 0 });
    expect(cache.assets.sectionCounts({}, STARTS)).toEqual(expectedCounts(allRows()));
  });

  it('counts nothing for a text query without searchable words', () => {
    expect(cache.assets.sectionCounts({ query: '"*) OR (' }, STARTS)).toEqual(STARTS.map(() => 0));
  });

  it('reads the time index, not the rows: no sort, no temporary tree', () => {
    const plan = cache.sqlite
      .prepare(
        `EXPLAIN QUERY PLAN SELECT (SELECT count(*) FROM assets a WHERE a.kind = 'image' AND a.created_at >= s.value ->> 0
         AND a.created_at < s.value ->> 1) AS n FROM json_each('[[0,1]]') s ORDER BY s.key`,
      )
      .all() as { detail: string }[];
    const details = plan.map((p) => p.detail).join('\n');
    expect(details).toMatch(/COVERING INDEX assets_by_kind_time \(kind=\? AND created_at>\? AND created_at<\?\)/);
  });
});

describe('assets:sections', () => {
  const sectionArgs = invokeChannels['assets:sections'].args;
  const handlers = () => assetsHandlers({ cache: () => cache, mediaUrlFor: () => '' });

  it('answers the section counts of the whole view', () => {
    expect(handlers()['assets:sections'](v.parse(sectionArgs, { sections: STARTS }))).toEqual(
      expectedCounts(allRows()),
    );
  });

  it('refuses section starts out of order, fractional or too many, with a plain reason', () => {
    const reason = (sections: unknown) => {
      const result = v.safeParse(sectionArgs, { sections });
      return result.success ? null : result.issues[0].message;
    };
    expect(reason([2, 1, 1])).toBe('Give the section starts newest first, each earlier than the one before.');
    expect(reason([1.5])).toBe('A section start must be a whole number of milliseconds.');
    expect(reason([])).toBe('Give at least one section start.');
    expect(reason(Array.from({ length: 401 }, (_, i) => -i))).toBe('Give at most 400 section starts.');
    expect(reason([3, 2, 1])).toBeNull();
  });
});
