// The filter is declared once (contract/ipc/assets.ts) and the core has a SQL term for each field:
// a field added to the filter without a term does not compile. The `@ts-expect-error` lines are the
// proof, checked by tsc: were FILTER_TERMS's keys optional, or not tied to the filter's, they would
// compile, and tsc would fail on an unused @ts-expect-error.
import { describe, expect, it } from 'vitest';
import { ASSET_FILTER_FIELDS, type AssetFilter } from '../../../contract/ipc/assets.ts';
import { FILTER_TERMS, type CoreAssetFilter, type FilterTerms } from './assets-query.ts';

describe('the SQL terms of the library filter', () => {
  it('a filter field without a SQL term does not compile', () => {
    /** A filter with one field more, as a newcomer would add it to assetFilterSchema. */
    type WithWidth = CoreAssetFilter & { minWidth?: number };
    // @ts-expect-error  Property 'minWidth' is missing: the new field has no term.
    const missing: FilterTerms<WithWidth> = FILTER_TERMS;

    const { query: _query, ...withoutQuery } = FILTER_TERMS;
    // @ts-expect-error  Property 'query' is missing: every field of today's filter needs its term.
    const dropped: FilterTerms<CoreAssetFilter> = withoutQuery;

    // With the term given, it compiles.
    const given: FilterTerms<WithWidth> = { ...FILTER_TERMS, minWidth: () => null };
    expect([missing, dropped, given].every(Boolean)).toBe(true);
  });

  it('has a term for every field of the contract filter, and only the core-only type besides', () => {
    const contract: (keyof AssetFilter)[] = [...ASSET_FILTER_FIELDS];
    expect(Object.keys(FILTER_TERMS).sort()).toEqual([...contract, 'type'].sort());
  });
});
