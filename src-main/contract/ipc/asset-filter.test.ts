// sameFilter: one comparison of library filters, blind to the order of fields and to defaults.
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { anyAssetFilter, assetFilterFields } from '../test-support/asset-filters.ts';
import { ASSET_FILTER_FIELDS, assetFilterSchema, sameFilter, type AssetFilter } from './assets.ts';

/** The same fields in another order, with some absent fields written as undefined. */
const reordered = (filter: AssetFilter, order: number[], undefinedToo: boolean): AssetFilter => {
  const fields = ASSET_FILTER_FIELDS.map((field, i) => [field, order[i] ?? i] as const).sort((a, b) => a[1] - b[1]);
  const out: Record<string, unknown> = {};
  for (const [field] of fields) {
    if (filter[field] !== undefined) out[field] = filter[field];
    else if (undefinedToo) out[field] = undefined;
  }
  return out as AssetFilter;
};

describe('sameFilter', () => {
  it('the generated filters are valid filters', () => {
    fc.assert(fc.property(anyAssetFilter, (filter) => v.safeParse(assetFilterSchema, filter).success));
  });

  it('ignores the order of fields and fields written as undefined', () => {
    fc.assert(
      fc.property(
        anyAssetFilter,
        fc.array(fc.integer(), { minLength: ASSET_FILTER_FIELDS.length, maxLength: ASSET_FILTER_FIELDS.length }),
        fc.boolean(),
        (filter, order, undefinedToo) => {
          expect(sameFilter(filter, reordered(filter, order, undefinedToo))).toBe(true);
          expect(sameFilter(reordered(filter, order, undefinedToo), filter)).toBe(true);
        },
      ),
    );
  });

  it('takes blank search text for none, and a time for its instant', () => {
    expect(sameFilter({ origin: 'generated', query: '  ' }, { origin: 'generated' })).toBe(true);
    expect(sameFilter({ query: ' sunset ' }, { query: 'sunset' })).toBe(true);
    expect(sameFilter({ dateFrom: '2025-03-01T00:00:00+01:00' }, { dateFrom: '2025-02-28T23:00:00.000Z' })).toBe(true);
  });

  it('takes 0 stars for no rating filter, and tells the star counts apart', () => {
    expect(sameFilter({ minRating: 0 }, {})).toBe(true);
    expect(sameFilter({ minRating: 3 }, {})).toBe(false);
    expect(sameFilter({ minRating: 3 }, { minRating: 4 })).toBe(false);
  });

  it('tells apart filters that differ in any one field', () => {
    fc.assert(
      fc.property(
        anyAssetFilter,
        fc.constantFrom(...ASSET_FILTER_FIELDS),
        fc.integer({ min: 0, max: 1000 }),
        (filter, field, seed) => {
          const other = fc.sample(assetFilterFields[field] as fc.Arbitrary<unknown>, { seed, numRuns: 1 })[0];
          fc.pre(other !== filter[field]);
          expect(sameFilter(filter, { ...filter, [field]: other })).toBe(false);
          const { [field]: _gone, ...without } = filter;
          if (filter[field] !== undefined) expect(sameFilter(filter, without)).toBe(false);
        },
      ),
    );
  });

  it('Images + Offline is the same filter whichever was chosen first', () => {
    expect(
      sameFilter(
        { origin: 'generated', offline: true, kind: 'image' },
        { kind: 'image', origin: 'generated', offline: true },
      ),
    ).toBe(true);
  });
});
