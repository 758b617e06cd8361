// The Library grid's date sections, counted: how many of a view's assets (the same filter as its
// pages) fall in each span of time the renderer names (lib/library/date-sections.ts decides the spans
// in the local time zone; the core only counts). One statement: a count per span, each a range of
// the time index the view's pages walk (assets_by_time, or assets_by_kind_time under a kind), so the
// whole view's index entries are counted once and no row is sorted or grouped.
import { joinSql, sql, type StatementCache } from '../sql.ts';
import { filterTerms, type CoreAssetFilter } from './assets-query.ts';

/**
 * How many assets of `filter` each section holds. `starts` are the sections' first instants (ms),
 * newest first and strictly decreasing; a section ends where the newer one starts (the first: never).
 */
export function countSections(q: StatementCache, filter: CoreAssetFilter, starts: readonly number[]): number[] {
  const terms = filterTerms(q, filter);
  if (terms === null || starts.length === 0) return starts.map(() => 0);
  // [from, to) of each section, in order; the newest reaches past any time (a clock ahead of ours).
  const spans = starts.map((start, i) => [start, i === 0 ? Number.MAX_SAFE_INTEGER : (starts[i - 1] as number)]);
  const inSpan = joinSql([...terms, sql`a.created_at >= s.value ->> 0 AND a.created_at < s.value ->> 1`], sql` AND `);
  const rows = q.all<{ n: number }>(
    sql`SELECT (SELECT count(*) FROM assets a WHERE ${inSpan}) AS n FROM json_each(${JSON.stringify(spans)}) s ORDER BY s.key`,
  );
  return rows.map((row) => row.n);
}
