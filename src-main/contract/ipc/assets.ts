// Channels that read the library (images and videos) from the local cache: filtered keyset
// pages, one asset, text search and the filter bar's counts. Works offline; sync fills the cache.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import { ASSETS_PER_CALL, type AssetKindInfo, type AssetRefInfo } from './library.ts';
import { ASSET_FLAGS, ratingSchema, type AssetFlagInfo } from './marks.ts';

export type AssetOriginInfo = 'generated' | 'uploaded';
export type AssetFileStateInfo = 'remote' | 'queued' | 'downloading' | 'downloaded' | 'failed';
/** 'rating': most stars first, then newest. */
export type AssetSortInfo = 'newest' | 'oldest' | 'rating';
export const ASSET_SORTS = ['newest', 'oldest', 'rating'] as const satisfies readonly AssetSortInfo[];
const sortSchema = v.optional(v.picklist(ASSET_SORTS, 'Sort by newest, oldest or rating.'), 'newest');

export interface AssetFileInfo {
  state: AssetFileStateInfo;
  /** Library-relative path of the local copy (served by the media route), when downloaded. */
  path: string | null;
  /** Library-relative path of the cached thumbnail, when made. */
  thumbPath: string | null;
  /** Where the renderer loads the local copy from (host-specific media URL), when downloaded. */
  localUrl: string | null;
  /** Where the renderer loads the thumbnail from; the grid never loads full images. */
  thumbUrl: string | null;
  bytes: number | null;
}

export interface AssetInfo extends AssetRefInfo {
  /** 'uploaded' = training inputs and reference images; everything else was generated. */
  origin: AssetOriginInfo;
  modelId: string | null;
  /** The service's type (e.g. output, modelInput, auxiliaryType, or a video type). */
  type: string | null;
  /** The service's media URL (may expire or be a streaming playlist; prefer file.path offline). */
  url: string | null;
  /** True when `url` is an HLS playlist (stream online with hls.js, or copy offline). */
  hls: boolean;
  upscaledImageId: string | null;
  upscaledImageUrl: string | null;
  /** Lineage: the image this upscale was made from. */
  sourceAssetId: string | null;
  folderId: string | null;
  publicMediaId: string | null;
  /** The service's like (read only: the service offers no way to set it). */
  liked: boolean;
  /** The user's star, kept on this computer only. */
  favorite: boolean;
  /** The user's rating, 0–5 stars (0: not rated), kept on this computer only (contract/ipc/marks.ts). */
  rating: number;
  /** The user's pick or reject, kept on this computer only; null: neither. */
  flag: AssetFlagInfo | null;
  /** Uploads: the file it was uploaded from, when known. */
  uploadName: string | null;
  createdAt: string;
  updatedAt: string | null;
  jobId: string | null;
  prompt: string | null;
  preset: string | null;
  /**
   * The request that made it, as sent (when known), as its JSON text: a library page leaves it
   * unparsed, so only what uses it (remix, the details, a tile without a known size) pays for the
   * parse. The renderer reads it through `assetParams` (src-renderer/src/lib/library/asset-params.ts).
   */
  paramsJson: string | null;
  /** Reference frames a video was made from, as sent. */
  frames: unknown[] | null;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  /** The file's format ('png', 'jpeg', 'webp', 'mp4', 'hls', …), when known. */
  format: string | null;
  /** Where width, height, length and format came from: the request (an estimate), the service, the file. */
  factsFrom: 'request' | 'service' | 'file' | null;
  file: AssetFileInfo;
  /** The service no longer lists it; it is kept because a local copy exists. */
  removedFromService: boolean;
}

export interface AssetPageInfo {
  items: AssetInfo[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** A view's map: every item's shape (shape-code.ts, one byte each, base64) and each page's cursor. */
export interface AssetLayoutInfo {
  /** In order; each page's cursor (null: the first page) fetches it with `assets:list`. */
  pages: { cursor: string | null; shapes: string }[];
  /** Pass back as `cursor` to map on; null once the view's end is mapped. */
  nextCursor: string | null;
}

export interface AssetCountsInfo {
  total: number;
  images: number;
  videos: number;
  /** With a local copy. */
  offline: number;
  /** Liked on the service. */
  liked: number;
  /** Starred here (local favourites). */
  favorites: number;
  /** Flagged as picks here. */
  picks: number;
  /** Flagged as rejects here. */
  rejects: number;
  /** How many have exactly 0, 1, … 5 stars (index = stars; six entries). */
  byRating: number[];
  /** Most assets first; modelId null = assets without a model. */
  byModel: { modelId: string | null; count: number }[];
}

export interface AssetsChangedInfo {
  /** What changed them: a refresh, a finished job, a download, a deletion. */
  reason: 'sync' | 'job' | 'download' | 'delete' | 'organize';
  kinds: AssetKindInfo[];
  /** The assets concerned, when few; absent means "reload what you show". */
  assets?: AssetRefInfo[];
}

export const ASSET_PAGE_LIMIT = { default: 200, max: 500 } as const;
/** Pages mapped by one `assets:layout` call (at most 100,000 items: a few tens of ms in the core). */
export const ASSET_LAYOUT_PAGES = { default: 100, max: 200 } as const;
export const ASSET_SEARCH_LIMIT = { default: 50, max: 200 } as const;
export const ASSET_QUERY_MAX_LENGTH = 200;
/** "The whole family" of at most this many assets at once (the `familyOf` filter). */
export const FAMILY_OF_MAX = 100;
/** The most date sections one `assets:sections` call counts (the grid's are about 90: days, months, years). */
export const ASSET_SECTIONS_MAX = 400;

export const assetKindSchema = v.picklist(['image', 'video'], 'The asset kind must be image or video.');
export const serviceIdSchema = v.pipe(
  v.string('The id must be text.'),
  v.nonEmpty('The id is empty.'),
  v.maxLength(256, 'The id is too long.'),
);
/**
 * Date sections to count over a whole view: each one's start (ms since the epoch),
 * newest first; a section holds the times from its start to the newer one's (the first: no end).
 */
const sectionStartsSchema = v.pipe(
  v.array(
    v.pipe(
      v.number('A section start must be a number.'),
      v.safeInteger('A section start must be a whole number of milliseconds.'),
    ),
    'Give the section starts as a list.',
  ),
  v.nonEmpty('Give at least one section start.'),
  v.maxLength(ASSET_SECTIONS_MAX, `Give at most ${ASSET_SECTIONS_MAX} section starts.`),
  v.check(
    (starts) => starts.every((start, i) => i === 0 || start < (starts[i - 1] as number)),
    'Give the section starts newest first, each earlier than the one before.',
  ),
);
/** An opaque page cursor handed out by a previous page. */
export const pageCursorSchema = v.pipe(
  v.string('The cursor must be text.'),
  v.maxLength(64, 'The cursor is too long.'),
);
const timeSchema = v.pipe(
  v.string('Give the time as ISO 8601 text.'),
  v.maxLength(40, 'The time is too long.'),
  v.check((text) => Number.isFinite(Date.parse(text)), 'Give the time as ISO 8601, e.g. 2025-03-01T00:00:00+01:00.'),
);
const querySchema = v.pipe(
  v.string('The search text must be text.'),
  v.maxLength(ASSET_QUERY_MAX_LENGTH, `The search text is too long (at most ${ASSET_QUERY_MAX_LENGTH} characters).`),
);
export const pageLimitSchema = (max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.number('The limit must be a number.'),
      v.integer('The limit must be a whole number.'),
      v.minValue(1, 'The limit must be at least 1.'),
      v.maxValue(max, `The limit is at most ${max}.`),
    ),
    fallback,
  );

export const assetFilterSchema = v.strictObject({
  kind: v.optional(assetKindSchema),
  origin: v.optional(v.picklist(['generated', 'uploaded'], 'The origin must be generated or uploaded.')),
  modelId: v.optional(serviceIdSchema),
  /** true: only with a local copy; false: only without. */
  offline: v.optional(v.boolean('offline must be true or false.')),
  liked: v.optional(v.boolean('liked must be true or false.')),
  /** The local star. */
  favorite: v.optional(v.boolean('favorite must be true or false.')),
  /** Only what was put in this (hand-made) collection. */
  collectionId: v.optional(
    v.pipe(v.number('The collection id must be a number.'), v.integer(), v.minValue(1, 'No such collection.')),
  ),
  /** By the media's shape: taller than wide, wider than tall, or square (size known before a download). */
  orientation: v.optional(
    v.picklist(['portrait', 'landscape', 'square'], 'The orientation must be portrait, landscape or square.'),
  ),
  /** Inclusive. */
  dateFrom: v.optional(timeSchema),
  /** Exclusive. */
  dateTo: v.optional(timeSchema),
  /** Words, each matched as a prefix (searching starts at two letters). */
  query: v.optional(querySchema),
  /** Only assets with at least this many stars (0: any, the same as absent). */
  minRating: v.optional(ratingSchema),
  /** Only picks, only rejects, or only what is neither. */
  flag: v.optional(v.picklist([...ASSET_FLAGS, 'unflagged'], 'The flag filter must be pick, reject or unflagged.')),
  /** "The whole family": these assets (`image:<id>`, `video:<id>`) and their relatives (contract/ipc/family.ts). */
  familyOf: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string('Name each asset as image:<id> or video:<id>.'),
          v.maxLength(262, 'An asset is named too long.'),
          v.regex(/^(image|video):\S+$/, 'Name each asset as image:<id> or video:<id>.'),
        ),
        'familyOf must be a list of assets.',
      ),
      v.nonEmpty('familyOf names no asset.'),
      v.maxLength(FAMILY_OF_MAX, `The whole family of at most ${FAMILY_OF_MAX} items at once.`),
    ),
  ),
});

/**
 * The Library's filter, declared once: the core's SQL has one term per field (a field without one
 * does not compile) and the renderer holds it as is. An absent field does not narrow.
 */
export type AssetFilter = v.InferOutput<typeof assetFilterSchema>;
/** Every field of the filter, in the schema's order. */
export const ASSET_FILTER_FIELDS = Object.keys(assetFilterSchema.entries) as (keyof AssetFilter)[];

/** A field's value as compared: blank text and an absent field are the same, a time is its instant. */
function comparable(field: keyof AssetFilter, value: AssetFilter[keyof AssetFilter]): unknown {
  if (value === undefined) return undefined;
  if (field === 'query') return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  if (field === 'dateFrom' || field === 'dateTo') return typeof value === 'string' ? Date.parse(value) : value;
  if (field === 'minRating') return value === 0 ? undefined : value;
  if (field === 'familyOf' && Array.isArray(value)) return [...new Set(value)].sort().join('\n');
  return value;
}

/**
 * Whether two filters hold the same assets as written: order-insensitive, and a field set to its
 * default (absent, undefined, blank text) is the same as a field not given.
 */
export function sameFilter(a: AssetFilter, b: AssetFilter): boolean {
  return ASSET_FILTER_FIELDS.every((field) => comparable(field, a[field]) === comparable(field, b[field]));
}

export const assetsInvoke = {
  'assets:list': invoke(
    v.optional(
      v.strictObject({
        filter: v.optional(assetFilterSchema),
        sort: sortSchema,
        cursor: v.optional(v.nullable(pageCursorSchema)),
        limit: pageLimitSchema(ASSET_PAGE_LIMIT.max, ASSET_PAGE_LIMIT.default),
      }),
      {},
    ),
    type<AssetPageInfo>(),
  ),
  /** The shapes and page cursors of what `assets:list` would page through from `cursor`, without the items. */
  'assets:layout': invoke(
    v.strictObject({
      filter: v.optional(assetFilterSchema),
      sort: sortSchema,
      cursor: v.optional(v.nullable(pageCursorSchema)),
      pages: pageLimitSchema(ASSET_LAYOUT_PAGES.max, ASSET_LAYOUT_PAGES.default),
      pageSize: pageLimitSchema(ASSET_PAGE_LIMIT.max, ASSET_PAGE_LIMIT.default),
    }),
    type<AssetLayoutInfo>(),
  ),
  /**
   * The grid's date sections: how many of the whole view's assets each holds, in their order (one
   * indexed count per section; its own call, so a first screen still reads only its first page).
   */
  'assets:sections': invoke(
    v.strictObject({
      filter: v.optional(assetFilterSchema),
      sections: sectionStartsSchema,
    }),
    type<number[]>(),
  ),
  'assets:get': invoke(v.strictObject({ kind: assetKindSchema, id: serviceIdSchema }), type<AssetInfo>()),
  /** Best matches first; a very broad query (thousands of matches) returns the newest matches. */
  'assets:search': invoke(
    v.strictObject({
      query: querySchema,
      kind: v.optional(assetKindSchema),
      limit: pageLimitSchema(ASSET_SEARCH_LIMIT.max, ASSET_SEARCH_LIMIT.default),
    }),
    type<AssetInfo[]>(),
  ),
  /** Which of these assets the filter shows (is a selection still in view?). */
  'assets:matching': invoke(
    v.strictObject({
      filter: assetFilterSchema,
      assets: v.pipe(
        v.array(v.strictObject({ kind: assetKindSchema, id: serviceIdSchema }), 'Give a list of assets.'),
        v.maxLength(ASSETS_PER_CALL, `Too many assets at once (at most ${ASSETS_PER_CALL}).`),
      ),
    }),
    type<AssetRefInfo[]>(),
  ),
  'assets:counts': invoke(
    v.optional(
      v.strictObject({
        origin: v.optional(v.picklist(['generated', 'uploaded'], 'The origin must be generated or uploaded.')),
      }),
      {},
    ),
    type<AssetCountsInfo>(),
  ),
};

export const assetsEvents = {
  'assets:changed': type<AssetsChangedInfo>(),
};
