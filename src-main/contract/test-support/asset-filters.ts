// Any valid library filter (contract/ipc/assets.ts), for property tests of whatever holds or compares one.
import fc from 'fast-check';
import type { AssetFilter } from '../ipc/assets.ts';

/** A local day's start as ISO text, as the Library's date filter writes it. */
const isoDay = fc
  .date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).toISOString());

/** Every field's values; a filter takes any subset of them (a search's words are two letters or more). */
export const assetFilterFields = {
  kind: fc.constantFrom('image' as const, 'video' as const),
  origin: fc.constantFrom('generated' as const, 'uploaded' as const),
  modelId: fc.constantFrom('imagea-1', 'videod-1.5', 'mdl_0001demo000000000'),
  offline: fc.boolean(),
  liked: fc.boolean(),
  favorite: fc.boolean(),
  orientation: fc.constantFrom('portrait', 'landscape', 'square'),
  collectionId: fc.integer({ min: 1, max: 50 }),
  dateFrom: isoDay,
  dateTo: isoDay,
  query: fc.constantFrom('sunset', 'sun bea', 'zebra', 'teapot lighthouse'),
  // 0 stars narrows nothing (the same filter as none): the fields' "differs" test takes 1 to 5.
  minRating: fc.integer({ min: 1, max: 5 }),
  flag: fc.constantFrom('pick', 'reject', 'unflagged'),
} satisfies { [K in keyof AssetFilter]-?: fc.Arbitrary<NonNullable<AssetFilter[K]>> };

/** Any filter: any combination of fields, each absent or set. */
export const anyAssetFilter: fc.Arbitrary<AssetFilter> = fc.record(assetFilterFields, { requiredKeys: [] });

/** A saved search's filter (a smart collection): any combination, without a collection of its own. */
export const anySavedSearch = anyAssetFilter.map(({ collectionId: _none, ...search }) => search);
