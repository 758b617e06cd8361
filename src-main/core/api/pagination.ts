// Async iterators over the service's two kinds of pages: cursor pages (model images, videos) and
// job pages (pageToken), plus collectAll. Both stop cleanly and refuse to loop on a repeated token.
import type { CursorPage, JobSummary, JobsPage } from '../../contract/service.ts';

/** Builds the error thrown when the service hands out a token it already gave (a page loop). */
export type LoopError = () => Error;

/**
 * Cursor pages: first page with an empty cursor, then `nextCursor` while `hasMore` is true.
 * `fetchPage` must keep pageSize and filters fixed; it only varies the cursor.
 */
export async function* cursorPages<T>(
  fetchPage: (cursor: string) => Promise<CursorPage<T>>,
  loopError: LoopError,
): AsyncGenerator<CursorPage<T>, void, undefined> {
  const seen = new Set<string>();
  let cursor = '';
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (!page.hasMore || page.nextCursor === '') return;
    if (seen.has(page.nextCursor)) throw loopError();
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/**
 * Job pages: first page without a token (or from `firstToken`, to continue a listing), then
 * `nextPageToken` until it is empty.
 */
export async function* tokenPages(
  fetchPage: (pageToken: string) => Promise<JobsPage>,
  loopError: LoopError,
  firstToken = '',
): AsyncGenerator<JobsPage, void, undefined> {
  const seen = new Set<string>(firstToken === '' ? [] : [firstToken]);
  let token = firstToken;
  for (;;) {
    const page = await fetchPage(token);
    yield page;
    if (page.nextPageToken === '') return;
    if (seen.has(page.nextPageToken)) throw loopError();
    seen.add(page.nextPageToken);
    token = page.nextPageToken;
  }
}

/** Every item of every page, in order. `maxItems` stops early (the rest of the pages is not fetched). */
export async function collectAll<T>(pages: AsyncIterable<CursorPage<T>>, options?: { maxItems?: number }): Promise<T[]>;
export async function collectAll(
  pages: AsyncIterable<JobsPage>,
  options?: { maxItems?: number },
): Promise<JobSummary[]>;
export async function collectAll(
  pages: AsyncIterable<CursorPage<unknown> | JobsPage>,
  options: { maxItems?: number } = {},
): Promise<unknown[]> {
  const max = options.maxItems ?? Infinity;
  const out: unknown[] = [];
  if (max <= 0) return out;
  for await (const page of pages) {
    out.push(...('items' in page ? page.items : page.jobs));
    if (out.length >= max) return out.slice(0, max);
  }
  return out;
}
