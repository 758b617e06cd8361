// Scenario 3: library queries on a seeded cache of 1,000,000 assets. Three sides, called in turn:
// the same SQL run directly through better-sqlite3 on its own plain connection (the baseline),
// Atelier's repository (AssetsRepo: composed SQL, statement cache, cursors) and the whole assets:*
// channel as the renderer calls it (argument validation, repository, rows → AssetInfo DTOs). The
// library is given ratings and flags first (library-marks.ts), for the pages filtered and sorted by
// them and the timing of marking itself.
import Database from 'better-sqlite3';
import * as v from 'valibot';
import { invokeChannels } from '../src-main/contract/ipc.ts';
import { openAccountDb, type AccountDb } from '../src-main/core/db/account-db.ts';
import { toFtsQuery } from '../src-main/core/db/fts-query.ts';
import { ASSET_ROW_COLUMNS } from '../src-main/core/db/repos/asset-row.ts';
import { FEW_MATCHES, RANKABLE_MATCHES } from '../src-main/core/db/repos/assets-query.ts';
import { dateSections } from '../src-renderer/src/lib/library/date-sections.ts';
import { assetsHandlers } from '../src-main/core/handlers/assets.ts';
import { browserMediaUrl } from '../src-main/core/library/library-host.ts';
import type { BenchContext, Scenario } from './harness/context.ts';
import { FULL_LIBRARY, librarySize, seededLibraryCopy } from './harness/library-seed.ts';
import { row, type BenchRow } from './harness/report.ts';
import { summarize, type Summary } from './harness/stats.ts';
import { timeInterleaved } from './harness/timing.ts';
import { seedMarks, timeMarks } from './library-marks.ts';

const COLUMNS = ASSET_ROW_COLUMNS.text;
const PAGE = 200;
const SEARCH_LIMIT = 50;
const SEARCH_TEXT = 'sunset beach';
const RATIO_GOAL = 1.2;

type Channel = 'assets:list' | 'assets:search' | 'assets:counts' | 'assets:layout' | 'assets:sections';

// The grid's date sections as the renderer asks for them, seen from the seeded library's newest day
// (lib/library/date-sections.ts): a count per section over the whole view, in one statement.
const SECTION_STARTS = dateSections(new Date('2026-01-01T12:00:00Z')).map((section) => section.start);
const SECTION_SQL = (where: string) =>
  `SELECT (SELECT count(*) FROM assets a WHERE ${where}a.created_at >= s.value ->> 0 AND a.created_at < s.value ->> 1) AS n
   FROM json_each(?) s ORDER BY s.key`;
const SECTION_SPANS = JSON.stringify(
  SECTION_STARTS.map((start, i) => [start, i === 0 ? Number.MAX_SAFE_INTEGER : SECTION_STARTS[i - 1]]),
);
const sectionCounts = (result: unknown): number[] => result as number[];
const countsOf = (rows: unknown[]): number[] => (rows as { n: number }[]).map((r) => r.n);

interface Query {
  figure: string;
  channel: Channel;
  args: Record<string, unknown>;
  repo(cache: AccountDb): unknown;
  /** The statements Atelier runs for this call, run raw; returns ids (or a total) to compare. */
  raw(prepare: (text: string) => Database.Statement): unknown;
  /** The same identity from Atelier's channel answer. */
  identity(result: unknown): unknown;
  /** Goal on the median of the channel call, ms. */
  limitMs: number;
  /** Whether the ratio to raw SQL is a goal too (pages: the channel adds only argument checks and DTOs). */
  ratioGoal: boolean;
}

const idsOf = (items: readonly { id: string }[]): string[] => items.map((item) => item.id);
const pageIds = (result: unknown): string[] =>
  idsOf(Array.isArray(result) ? (result as { id: string }[]) : (result as { items: { id: string }[] }).items);

const QUERIES: Query[] = [
  {
    figure: 'grid page of 200, default sort',
    channel: 'assets:list',
    args: { limit: PAGE },
    repo: (cache) => cache.assets.list({ limit: PAGE }),
    raw: (prepare) =>
      idsOf(
        (
          prepare(`SELECT ${COLUMNS} FROM assets a ORDER BY a.created_at DESC, a.seq DESC LIMIT ?`).all(PAGE + 1) as {
            id: string;
          }[]
        ).slice(0, PAGE),
      ),
    identity: pageIds,
    limitMs: 5,
    ratioGoal: true,
  },
  {
    figure: 'grid page of 200, filter images+offline',
    channel: 'assets:list',
    args: { limit: PAGE, filter: { kind: 'image', offline: true } },
    repo: (cache) => cache.assets.list({ limit: PAGE, filter: { kind: 'image', offline: true } }),
    raw: (prepare) =>
      idsOf(
        (
          prepare(
            `SELECT ${COLUMNS} FROM assets a WHERE a.kind = ? AND a.file_state = 'downloaded' ORDER BY a.created_at DESC, a.seq DESC LIMIT ?`,
          ).all('image', PAGE + 1) as { id: string }[]
        ).slice(0, PAGE),
      ),
    identity: pageIds,
    limitMs: 5,
    ratioGoal: true,
  },
  ...(
    [
      ['rated 4+', { minRating: 4 }, 'WHERE a.rating > 0 AND a.rating >= 4 ORDER BY a.created_at DESC, a.seq DESC'],
      ['rejects', { flag: 'reject' }, "WHERE a.flag = 'reject' ORDER BY a.created_at DESC, a.seq DESC"],
    ] as const
  ).map(([name, filter, tail]): Query => ({
    figure: `grid page of 200, ${name}`,
    channel: 'assets:list',
    args: { limit: PAGE, filter },
    repo: (cache) => cache.assets.list({ limit: PAGE, filter }),
    raw: (prepare) =>
      idsOf(
        (prepare(`SELECT ${COLUMNS} FROM assets a ${tail} LIMIT ?`).all(PAGE + 1) as { id: string }[]).slice(0, PAGE),
      ),
    identity: pageIds,
    limitMs: 5,
    ratioGoal: true,
  })),
  {
    figure: 'grid page of 200, by rating',
    channel: 'assets:list',
    args: { limit: PAGE, sort: 'rating' },
    repo: (cache) => cache.assets.list({ limit: PAGE, sort: 'rating' }),
    raw: (prepare) =>
      idsOf(
        (
          prepare(`SELECT ${COLUMNS} FROM assets a ORDER BY a.rating DESC, a.created_at DESC, a.seq DESC LIMIT ?`).all(
            PAGE + 1,
          ) as { id: string }[]
        ).slice(0, PAGE),
      ),
    identity: pageIds,
    limitMs: 5,
    ratioGoal: true,
  },
  {
    figure: `full-text search "${SEARCH_TEXT}", best 50`,
    channel: 'assets:search',
    args: { query: SEARCH_TEXT, limit: SEARCH_LIMIT },
    repo: (cache) => cache.assets.search(SEARCH_TEXT, SEARCH_LIMIT),
    raw: (prepare) => {
      const match = toFtsQuery(SEARCH_TEXT);
      // Atelier counts the matches first (up to 1,000) to choose ranked or newest-first: the same here.
      const { n } = prepare(
        'SELECT count(*) AS n FROM (SELECT rowid FROM assets_fts WHERE assets_fts MATCH ? LIMIT ?)',
      ).get(match, FEW_MATCHES) as { n: number };
      if (n >= RANKABLE_MATCHES) {
        // So many that ranking costs more than it tells: the newest matches, sorting few matches,
        // walking the date order past FEW_MATCHES (as Atelier's plan does).
        const set = n < FEW_MATCHES ? 'a.seq' : '+a.seq';
        return idsOf(
          prepare(
            `SELECT ${COLUMNS} FROM assets a WHERE ${set} IN (SELECT rowid FROM assets_fts WHERE assets_fts MATCH ?)
             ORDER BY a.created_at DESC, a.seq DESC LIMIT ?`,
          ).all(match, SEARCH_LIMIT) as { id: string }[],
        );
      }
      return idsOf(
        prepare(
          `SELECT ${COLUMNS} FROM (SELECT rowid, rank FROM assets_fts WHERE assets_fts MATCH ? ORDER BY rank LIMIT ?) f
           JOIN assets a ON a.seq = f.rowid ORDER BY f.rank, a.created_at DESC, a.seq DESC`,
        ).all(match, SEARCH_LIMIT) as { id: string }[],
      );
    },
    identity: pageIds,
    limitMs: 20,
    ratioGoal: false,
  },
  {
    figure: `date sections (${SECTION_STARTS.length}), whole library`,
    channel: 'assets:sections',
    args: { sections: SECTION_STARTS },
    repo: (cache) => cache.assets.sectionCounts({}, SECTION_STARTS),
    raw: (prepare) => countsOf(prepare(SECTION_SQL('')).all(SECTION_SPANS)),
    identity: sectionCounts,
    limitMs: 200,
    ratioGoal: true,
  },
  {
    figure: `date sections (${SECTION_STARTS.length}), filter images+offline`,
    channel: 'assets:sections',
    args: { sections: SECTION_STARTS, filter: { kind: 'image', offline: true } },
    repo: (cache) => cache.assets.sectionCounts({ kind: 'image', offline: true }, SECTION_STARTS),
    raw: (prepare) =>
      countsOf(prepare(SECTION_SQL(`a.kind = ? AND a.file_state = 'downloaded' AND `)).all('image', SECTION_SPANS)),
    identity: sectionCounts,
    limitMs: 200,
    ratioGoal: true,
  },
  {
    figure: 'filter-bar counts',
    channel: 'assets:counts',
    args: {},
    repo: (cache) => cache.assets.counts(),
    raw: (prepare) =>
      (
        prepare(
          'SELECT kind, model_id, offline, liked, sum(n) AS n FROM asset_counts WHERE n > 0 GROUP BY kind, model_id, offline, liked',
        ).all() as {
          n: number;
        }[]
      ).reduce((sum, r) => sum + r.n, 0),
    identity: (result) => (result as { total: number }).total,
    limitMs: 1,
    ratioGoal: false,
  },
];

export interface QueryDetail {
  figure: string;
  raw: Summary;
  repository: Summary;
  channel: Summary;
}

export const libraryQueries: Scenario = {
  id: 'library-queries',
  title: '3 library',
  async run(ctx: BenchContext) {
    const size = librarySize(ctx);
    const reps = ctx.quick ? 60 : 400;
    const file = seededLibraryCopy(ctx, size);
    const cache = openAccountDb(file);
    seedMarks(cache);
    const plain = new Database(file, { readonly: true });
    const statements = new Map<string, Database.Statement>();
    // Prepared once, like any careful direct user of better-sqlite3.
    const prepare = (text: string): Database.Statement => {
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = plain.prepare(text)));
      return statement;
    };
    const handlers = assetsHandlers({ cache: () => cache, mediaUrlFor: browserMediaUrl });
    // What dispatch does for a renderer call, synchronously (awaiting its promise would time a turn
    // of the event loop): validate the arguments against the contract, run the handler.
    const channel = (q: Query): unknown => {
      const args = v.parse(invokeChannels[q.channel].args, q.args);
      return (handlers[q.channel] as (a: unknown) => unknown)(args);
    };
    const rows: BenchRow[] = [];
    const details: QueryDetail[] = [];
    const note = size === FULL_LIBRARY ? {} : { note: `${size.toLocaleString('en-US')} assets, not 1,000,000` };
    try {
      for (const q of QUERIES) {
        if (JSON.stringify(q.identity(channel(q))) !== JSON.stringify(q.raw(prepare))) {
          throw new Error(`${q.figure}: Atelier and the raw SQL returned different results`);
        }
        const samples = timeInterleaved({
          sides: { raw: () => q.raw(prepare), repository: () => q.repo(cache), channel: () => channel(q) },
          reps,
        });
        const d: QueryDetail = {
          figure: q.figure,
          raw: summarize(samples.raw),
          repository: summarize(samples.repository),
          channel: summarize(samples.channel),
        };
        details.push(d);
        const limit = q.limitMs;
        const goal = q.ratioGoal ? `ratio ≤ ${RATIO_GOAL}, ≤ ${limit} ms` : `≤ ${limit} ms`;
        const met = (value: number | null): boolean | null =>
          value === null || d.raw.median === null
            ? null
            : (!q.ratioGoal || value / d.raw.median <= RATIO_GOAL) && value <= limit;
        rows.push(
          row({
            scenario: this.title,
            figure: `${q.figure} (${q.channel}), median`,
            unit: 'ms',
            value: d.channel.median,
            baseline: d.raw.median,
            baselineName: 'raw SQL',
            goal,
            met: met(d.channel.median),
            ...note,
          }),
          row({
            scenario: this.title,
            figure: `  same, repository only (no DTOs)`,
            unit: 'ms',
            value: d.repository.median,
            baseline: d.raw.median,
            baselineName: 'raw SQL',
            goal,
            met: met(d.repository.median),
          }),
        );
      }
      const marking = timeMarks(cache, file, reps, this.title, note);
      rows.push(...marking.rows);
      details.push(...marking.details);
    } finally {
      plain.close();
      cache.close();
    }
    return { rows, details: { assets: size, reps, queries: details } };
  },
};
