// Cursor pages (model images, videos) and pageToken pages (jobs): keyset-based, opaque, tied to the query.
import { effectivePageSize } from '../src-main/contract/service.ts';
import { invalidField, type PageFields } from './envelope.ts';

/** Newest first; ties broken by id so the order is total and a keyset cursor never skips or repeats. */
export function newestFirst<T extends { createdAt: number; id: string }>(a: T, b: T): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

const isAfter = (item: { createdAt: number; id: string }, key: { t: number; id: string }): boolean =>
  item.createdAt < key.t || (item.createdAt === key.t && item.id < key.id);

interface CursorState {
  /** Last item of the previous page. */
  t: number;
  id: string;
  /** Number of the page this cursor opens. */
  p: number;
  /** The query (filters + pageSize) the cursor belongs to. */
  q: string;
}

function encode(state: object): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decode(token: string, field: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw invalidField(field, 'is not a token this service issued; restart from the first page');
}

/** First string value of a query parameter (repeated parameters give arrays). */
export function queryParam(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

export function cursorPage<T extends { createdAt: number; id: string }>(
  sortedItems: T[],
  query: unknown,
  querySignature: string,
): { items: T[]; page: PageFields } {
  const pageSize = effectivePageSize(queryParam(query, 'pageSize'));
  const cursor = queryParam(query, 'cursor') ?? '';
  const signature = `${querySignature}|${pageSize}`;
  let start = 0;
  let page = 1;
  if (cursor !== '') {
    const state = decode(cursor, 'cursor');
    if (typeof state.t !== 'number' || typeof state.id !== 'string' || typeof state.p !== 'number') {
      throw invalidField('cursor', 'is not a cursor this service issued; restart with an empty cursor');
    }
    if (state.q !== signature) {
      throw invalidField('cursor', 'belongs to a query with another pageSize or filter; restart with an empty cursor');
    }
    const key = { t: state.t, id: state.id };
    start = sortedItems.findIndex((item) => isAfter(item, key));
    if (start === -1) start = sortedItems.length;
    page = state.p;
  }
  const items = sortedItems.slice(start, start + pageSize);
  const hasMore = start + pageSize < sortedItems.length;
  const last = items.at(-1);
  const next: CursorState | undefined =
    hasMore && last ? { t: last.createdAt, id: last.id, p: page + 1, q: signature } : undefined;
  return { items, page: { hasMore, nextCursor: next ? encode(next) : '', page, pageSize } };
}

/** Page size of GET /jobs (the spec leaves it open). */
export const JOBS_PAGE_SIZE = 50;

export function jobsPage<T extends { createdAt: number; id: string }>(
  sortedItems: T[],
  pageToken: string,
  range: { start: number; end: number },
): { items: T[]; nextPageToken: string } {
  let start = 0;
  if (pageToken !== '') {
    const state = decode(pageToken, 'pageToken');
    if (typeof state.t !== 'number' || typeof state.id !== 'string') {
      throw invalidField('pageToken', 'is not a token this service issued; restart without pageToken');
    }
    if (state.s !== range.start || state.e !== range.end) {
      throw invalidField(
        'pageToken',
        'belongs to another start/end range; send the same range or restart without pageToken',
      );
    }
    const key = { t: state.t, id: state.id };
    start = sortedItems.findIndex((item) => isAfter(item, key));
    if (start === -1) start = sortedItems.length;
  }
  const items = sortedItems.slice(start, start + JOBS_PAGE_SIZE);
  const last = items.at(-1);
  const more = start + JOBS_PAGE_SIZE < sortedItems.length;
  return {
    items,
    nextPageToken: more && last ? encode({ t: last.createdAt, id: last.id, s: range.start, e: range.end }) : '',
  };
}

/** Decodes a pageToken's range so a follow-up request may omit start/end (the token remembers them). */
export function rangeOfPageToken(pageToken: string): { start: number; end: number } | undefined {
  if (pageToken === '') return undefined;
  const state = decode(pageToken, 'pageToken');
  return typeof state.s === 'number' && typeof state.e === 'number' ? { start: state.s, end: state.e } : undefined;
}
