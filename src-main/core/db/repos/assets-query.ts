// Read queries of the library: filtered keyset pages, full-text search and the filter-bar counts.
// Each filter adds one fixed fragment; values are always bound parameters.
import type { AssetCountsInfo, AssetFilter } from '../../../contract/ipc/assets.ts';
import { shapeCode } from '../../../contract/shape-code.ts';
import { toFtsQuery } from '../fts-query.ts';
import type { AssetKind, AssetOrigin } from '../record-fields.ts';
import { joinSql, sql, sqlInteger, type SqlFragment, type StatementCache } from '../sql.ts';
import { decodeAssetCursor, encodeAssetCursor, type AssetSort } from './asset-cursor.ts';
import { ASSET_ROW_COLUMNS, type AssetRow } from './asset-row.ts';
import { countMarks } from './marks-repo.ts';
import { familyOfTerm } from './lineage-repo.ts';

/**
 * The contract's filter (held as is), plus what only the core asks: a model's images of one
 * service type (models:images).
 */
export type CoreAssetFilter = AssetFilter & {
  /** Exact image type, e.g. 'modelInput'. */
  type?: string;
};

export interface AssetPageRequest {
  filter?: CoreAssetFilter;
  sort?: AssetSort;
  cursor?: string | null;
  limit: number;
}

export interface AssetPage {
  rows: AssetRow[];
  /** NULL on the last page. */
  nextCursor: string | null;
}

/** The filter bar's counts: the channel's own shape (contract/ipc/assets.ts). */
export type AssetCounts = AssetCountsInfo;

/** Below this many text matches, sorting the matches beats walking the library in date order. */
export const FEW_MATCHES = 1000;

/**
 * Ranking costs a bm25 score per match (FTS5 scores every match before it can pick the best: about
 * 25 µs each on the bench library on a loaded 2-core machine, 1,000 matches ~25 ms); past this many,
 * search returns the newest matches instead. So many matches means the words are common in the
 * library, where relevance tells little apart; bench scenario 3 measures both sides of this choice.
 */
export const RANKABLE_MATCHES = 500;

/** How many rows match, counting no further than `upTo`. */
function countMatches(q: StatementCache, match: string, upTo: number): number {
  return (
    q.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM (SELECT rowid FROM assets_fts WHERE assets_fts MATCH ${match} LIMIT ${upTo})`,
    )?.n ?? 0
  );
}

/** A term that no row meets: the whole query is skipped (a text query without searchable words). */
const NO_MATCH = Symbol('no match');

/** One filter field's WHERE term for a value; null when the value does not narrow. */
type Term<V> = (value: V, q: StatementCache) => SqlFragment | null | typeof NO_MATCH;

/** A filter's terms, one for every field: a field without a term does not compile. */
export type FilterTerms<F> = { [K in keyof F]-?: Term<NonNullable<F[K]>> };

/** true: `on`; false: `off` (literal SQL, so SQLite can use the partial indexes declared with the same terms). */
const flag =
  (on: SqlFragment, off: SqlFragment): Term<boolean> =>
  (value) =>
    value ? on : off;

export const FILTER_TERMS: FilterTerms<CoreAssetFilter> = {
  kind: (kind) => sql`a.kind = ${kind}`,
  origin: (origin) => sql`a.origin = ${origin}`,
  modelId: (modelId) => sql`a.model_id = ${modelId}`,
  type: (type) => sql`a.type = ${type}`,
  offline: flag(sql`a.file_state = 'downloaded'`, sql`a.file_state <> 'downloaded'`),
  liked: flag(sql`a.liked = 1`, sql`a.liked = 0`),
  favorite: flag(sql`a.favorite = 1`, sql`a.favorite = 0`),
  orientation: (shape) =>
    shape === 'portrait'
      ? sql`a.width < a.height`
      : shape === 'landscape'
        ? sql`a.width > a.height`
        : sql`a.width = a.height`,
  collectionId: (id) => sql`a.seq IN (SELECT asset_seq FROM collection_items WHERE collection_id = ${id})`,
  // ISO times, checked by the schema (a saved search is read back through it too).
  dateFrom: (iso) => sql`a.created_at >= ${Date.parse(iso)}`,
  dateTo: (iso) => sql`a.created_at < ${Date.parse(iso)}`,
  // Literal SQL, so SQLite sees which stars and which flag (the rating index, the flags' partial index).
  // `a.rating > 0` is the partial index's own term (schema 15: assets_rated_by_time), so SQLite may use it.
  minRating: (stars) => (stars > 0 ? sql`a.rating > 0 AND a.rating >= ${sqlInteger(stars)}` : null),
  flag: (flag) =>
    flag === 'pick' ? sql`a.flag = 'pick'` : flag === 'reject' ? sql`a.flag = 'reject'` : sql`a.flag IS NULL`,
  familyOf: (keys) => familyOfTerm(keys),
  query: (text, q) => {
    if (text.trim() === '') return null;
    const match = toFtsQuery(text);
    return match === null ? NO_MATCH : matchTerm(match, countMatches(q, match, FEW_MATCHES));
  },
};

/** The WHERE terms of a filter; NULL when nothing can match (a text query has no searchable words). */
export function filterTerms(q: StatementCache, filter: CoreAssetFilter): SqlFragment[] | null {
  const terms: SqlFragment[] = [];
  for (const field of Object.keys(FILTER_TERMS) as (keyof CoreAssetFilter)[]) {
    const value = filter[field];
    if (value === undefined) continue;
    const term = (FILTER_TERMS[field] as Term<typeof value>)(value, q);
    if (term === NO_MATCH) return null;
    if (term !== null) terms.push(term);
  }
  return terms;
}

/** The WHERE term of a text match, given how many rows match (counted up to at least FEW_MATCHES). */
function matchTerm(match: string, matches: number): SqlFragment {
  // Few matches: read them by rowid and sort. Many: walk the date order and test each row against
  // the match set (the unary + keeps SQLite from driving the query by rowid).
  return matches < FEW_MATCHES
    ? sql`a.seq IN (SELECT rowid FROM assets_fts WHERE assets_fts MATCH ${match})`
    : sql`+a.seq IN (SELECT rowid FROM assets_fts WHERE assets_fts MATCH ${match})`;
}

const whereOf = (terms: SqlFragment[]): SqlFragment =>
  terms.length === 0 ? sql`` : sql` WHERE ${joinSql(terms, sql` AND `)}`;

const ORDER: Record<AssetSort, SqlFragment> = {
  newest: sql`a.created_at DESC, a.seq DESC`,
  oldest: sql`a.created_at ASC, a.seq ASC`,
  // Most stars first, newest first among equals (the rating index, schema 15, in this order backwards).
  rating: sql`a.rating DESC, a.created_at DESC, a.seq DESC`,
};

/** The WHERE, ORDER BY and sort of a page from `cursor` on; null when nothing can match. */
function pageTerms(
  q: StatementCache,
  request: Pick<AssetPageRequest, 'filter' | 'sort' | 'cursor'>,
): { where: SqlFragment; order: SqlFragment; sort: AssetSort } | null {
  const sort = request.sort ?? 'newest';
  const terms = filterTerms(q, request.filter ?? {});
  if (terms === null) return null;
  if (request.cursor) {
    const after = decodeAssetCursor(request.cursor, sort);
    terms.push(
      sort === 'newest'
        ? sql`(a.created_at, a.seq) < (${after.createdAt}, ${after.seq})`
        : sort === 'oldest'
          ? sql`(a.created_at, a.seq) > (${after.createdAt}, ${after.seq})`
          : sql`(a.rating, a.created_at, a.seq) < (${after.rating}, ${after.createdAt}, ${after.seq})`,
    );
  }
  const order = ORDER[sort];
  return { where: whereOf(terms), order, sort };
}

export function listAssets(q: StatementCache, request: AssetPageRequest): AssetPage {
  const page = pageTerms(q, request);
  if (page === null) return { rows: [], nextCursor: null };
  // One row more than asked tells whether another page exists without a COUNT.
  const rows = q.all<AssetRow>(
    sql`SELECT ${ASSET_ROW_COLUMNS} FROM assets a${page.where} ORDER BY ${page.order} LIMIT ${request.limit + 1}`,
  );
  const hasMore = rows.length > request.limit;
  if (hasMore) rows.length = request.limit;
  const last = rows.at(-1);
  return {
    rows,
    nextCursor:
      hasMore && last
        ? encodeAssetCursor({ sort: page.sort, createdAt: last.created_at, seq: last.seq, rating: last.rating })
        : null,
  };
}

/** created_at, seq, width, height, rating. */
type ShapeRow = [number, number, number | null, number | null, number];

export interface AssetLayoutRequest extends Omit<AssetPageRequest, 'limit'> {
  /** How many pages to map, and their size (the pages the grid will fetch). */
  pages: number;
  pageSize: number;
}

export interface AssetLayout {
  /** Each page: the cursor that fetches it (null: the first page) and one shape code per item. */
  pages: { cursor: string | null; shapes: Uint8Array }[];
  /** Where the next call goes on; null once the view's end is mapped. */
  nextCursor: string | null;
}

/**
 * The shape of every item in the next `pages` pages and the cursor of each: what a grid needs to lay
 * out a whole view and fetch any page of it, without reading the items. Reads only (created_at, seq,
 * width, height), which the time indexes cover; sorted by rating, the rating too, which its index holds.
 */
export function layoutAssets(q: StatementCache, request: AssetLayoutRequest): AssetLayout {
  const page = pageTerms(q, request);
  if (page === null) return { pages: [], nextCursor: null };
  const limit = request.pages * request.pageSize;
  const rows = q.raw<ShapeRow>(
    sql`SELECT a.created_at, a.seq, a.width, a.height, ${page.sort === 'rating' ? sql`a.rating` : sql`0`} FROM assets a${page.where} ORDER BY ${page.order} LIMIT ${limit + 1}`,
  );
  const hasMore = rows.length > limit;
  if (hasMore) rows.length = limit;
  const cursorAfter = (index: number): string => {
    const [createdAt, seq, , , rating] = rows[index] as ShapeRow;
    return encodeAssetCursor({ sort: page.sort, createdAt, seq, rating });
  };
  const pages: AssetLayout['pages'] = [];
  for (let start = 0; start < rows.length; start += request.pageSize) {
    const shapes = new Uint8Array(Math.min(request.pageSize, rows.length - start));
    for (let i = 0; i < shapes.length; i += 1) {
      const row = rows[start + i] as ShapeRow;
      shapes[i] = shapeCode(row[2], row[3]);
    }
    pages.push({ cursor: start === 0 ? (request.cursor ?? null) : cursorAfter(start - 1), shapes });
  }
  return { pages, nextCursor: hasMore ? cursorAfter(rows.length - 1) : null };
}

/**
 * Best matches first (bm25, prompt words weigh most), newest first among equals. A query so broad
 * that RANKABLE_MATCHES or more match returns the newest matches instead, at a fraction of the cost.
 */
export function searchAssets(
  q: StatementCache,
  query: string,
  limit: number,
  filter: CoreAssetFilter = {},
): AssetRow[] {
  const match = toFtsQuery(query);
  const terms = filterTerms(q, { ...filter, query: undefined });
  if (match === null || terms === null) return [];
  // One count serves both choices (each FTS query re-reads the words' doclists: at 1,000,000 assets
  // that reading is most of a search's cost).
  const matches = countMatches(q, match, Math.max(RANKABLE_MATCHES, FEW_MATCHES));
  if (matches >= RANKABLE_MATCHES) {
    terms.push(matchTerm(match, matches));
    return q.all<AssetRow>(
      sql`SELECT ${ASSET_ROW_COLUMNS} FROM assets a${whereOf(terms)} ORDER BY a.created_at DESC, a.seq DESC LIMIT ${limit}`,
    );
  }
  if (terms.length === 0) {
    // FTS5 stops ranking after `limit` rows when it can order by rank on its own.
    return q.all<AssetRow>(sql`
      SELECT ${ASSET_ROW_COLUMNS}
      FROM (SELECT rowid, rank FROM assets_fts WHERE assets_fts MATCH ${match} ORDER BY rank LIMIT ${limit}) f
      JOIN assets a ON a.seq = f.rowid
      ORDER BY f.rank, a.created_at DESC, a.seq DESC`);
  }
  return q.all<AssetRow>(sql`
    SELECT ${ASSET_ROW_COLUMNS}
    FROM (SELECT rowid, rank FROM assets_fts WHERE assets_fts MATCH ${match}) f
    JOIN assets a ON a.seq = f.rowid
    WHERE ${joinSql(terms, sql` AND `)}
    ORDER BY f.rank, a.created_at DESC, a.seq DESC
    LIMIT ${limit}`);
}

interface CountRow {
  kind: AssetKind;
  model_id: string;
  offline: number;
  liked: number;
  favorite: number;
  n: number;
}

/** From the trigger-maintained asset_counts table: a few dozen rows whatever the library size. */
export function countAssets(q: StatementCache, origin?: AssetOrigin): AssetCounts {
  const where = origin === undefined ? sql`` : sql` AND origin = ${origin}`;
  const rows = q.all<CountRow>(
    sql`SELECT kind, model_id, offline, liked, favorite, sum(n) AS n FROM asset_counts WHERE n > 0${where}
        GROUP BY kind, model_id, offline, liked, favorite`,
  );
  const counts: AssetCounts = {
    total: 0,
    images: 0,
    videos: 0,
    offline: 0,
    liked: 0,
    favorites: 0,
    picks: 0,
    rejects: 0,
    byRating: [],
    byModel: [],
  };
  const perModel = new Map<string, number>();
  for (const row of rows) {
    counts.total += row.n;
    if (row.kind === 'image') counts.images += row.n;
    else counts.videos += row.n;
    if (row.offline) counts.offline += row.n;
    if (row.liked) counts.liked += row.n;
    if (row.favorite) counts.favorites += row.n;
    perModel.set(row.model_id, (perModel.get(row.model_id) ?? 0) + row.n);
  }
  Object.assign(counts, countMarks(q, counts.total, origin));
  counts.byModel = [...perModel]
    .map(([modelId, count]) => ({ modelId: modelId === '' ? null : modelId, count }))
    .sort((a, b) => b.count - a.count || String(a.modelId).localeCompare(String(b.modelId)));
  return counts;
}

/** How many assets a filter holds (a smart collection's count); a query with no words holds none. */
export function countMatching(q: StatementCache, filter: CoreAssetFilter): number {
  const terms = filterTerms(q, filter);
  if (terms === null) return 0;
  return q.get<{ n: number }>(sql`SELECT count(*) AS n FROM assets a${whereOf(terms)}`)?.n ?? 0;
}

/** Which of the given seqs a filter holds (does the selection stay in view?). */
export function seqsMatching(q: StatementCache, filter: CoreAssetFilter, seqs: readonly number[]): number[] {
  const terms = filterTerms(q, filter);
  if (terms === null || seqs.length === 0) return [];
  terms.push(sql`a.seq IN (SELECT value FROM json_each(${JSON.stringify(seqs)}))`);
  return q.all<{ seq: number }>(sql`SELECT a.seq FROM assets a${whereOf(terms)}`).map((row) => row.seq);
}

/** Every seq a filter holds, newest first, up to `limit` (exporting a smart collection). */
export function seqsOfFilter(q: StatementCache, filter: CoreAssetFilter, limit: number): number[] {
  const terms = filterTerms(q, filter);
  if (terms === null) return [];
  return q
    .all<{ seq: number }>(
      sql`SELECT a.seq FROM assets a${whereOf(terms)} ORDER BY a.created_at DESC, a.seq DESC LIMIT ${limit}`,
    )
    .map((row) => row.seq);
}
