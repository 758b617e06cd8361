// Scenario 3's marks (issue 32): the library is given ratings and flags first (every 40th asset
// rated 1–5 stars, every 97th rejected), then setting a rating on one asset and on a selection of
// 500 is timed through the assets:mark channel (argument check, refs to rows, one transaction, the
// answer with the previous marks, the events) against the one raw UPDATE on a plain connection.
import Database from 'better-sqlite3';
import * as v from 'valibot';
import { invokeChannels } from '../src-main/contract/ipc.ts';
import type { AccountDb } from '../src-main/core/db/account-db.ts';
import { createEventBus } from '../src-main/core/events.ts';
import { marksHandlers } from '../src-main/core/handlers/marks.ts';
import { row, type BenchRow } from './harness/report.ts';
import { summarize } from './harness/stats.ts';
import { timeInterleaved } from './harness/timing.ts';
import type { QueryDetail } from './library-queries.ts';

/** Marks a seeded library as a user who rates and culls would have: some rated, fewer rejected. */
export function seedMarks(cache: AccountDb): void {
  cache.transaction(() => {
    cache.sqlite.exec(`UPDATE assets SET rating = 1 + (seq / 40) % 5 WHERE seq % 40 = 0`);
    cache.sqlite.exec(`UPDATE assets SET flag = 'reject' WHERE seq % 97 = 0`);
  });
}

/** Goals: a key's change within a frame's budget for one asset, and within a page's for 500. */
const CASES = [
  { figure: 'rate one asset', count: 1, limitMs: 2 },
  { figure: 'rate a selection of 500', count: 500, limitMs: 50 },
];

export function timeMarks(
  cache: AccountDb,
  file: string,
  reps: number,
  scenario: string,
  note: { note?: string },
): { rows: BenchRow[]; details: QueryDetail[] } {
  const plain = new Database(file);
  const handlers = marksHandlers({ cache: () => cache, events: createEventBus() });
  const rows: BenchRow[] = [];
  const details: QueryDetail[] = [];
  try {
    for (const c of CASES) {
      const picked = plain
        .prepare('SELECT seq, kind, id FROM assets ORDER BY created_at DESC, seq DESC LIMIT ?')
        .all(c.count) as { seq: number; kind: 'image' | 'video'; id: string }[];
      const refs = picked.map(({ kind, id }) => ({ kind, id }));
      const seqs = JSON.stringify(picked.map((p) => p.seq));
      const update = plain.prepare(
        'UPDATE assets SET rating = ? WHERE seq IN (SELECT value FROM json_each(?)) AND rating IS NOT ?',
      );
      // Each call changes the marks (3 ↔ 4 stars), as a user's keys do.
      let turn = 0;
      const stars = () => 3 + (turn++ % 2);
      const sides = {
        raw: () => {
          const rating = stars();
          return update.run(rating, seqs, rating).changes;
        },
        repository: () => {
          const rating = stars();
          return cache.transaction(() => cache.marks.setMarks(cache.assets.seqsOf(refs), { rating })).length;
        },
        channel: () => {
          const args = v.parse(invokeChannels['assets:mark'].args, { assets: refs, rating: stars() });
          return handlers['assets:mark'](args as Parameters<(typeof handlers)['assets:mark']>[0]).changed;
        },
      };
      const samples = timeInterleaved({ sides, reps });
      const d: QueryDetail = {
        figure: c.figure,
        raw: summarize(samples.raw),
        repository: summarize(samples.repository),
        channel: summarize(samples.channel),
      };
      details.push(d);
      for (const [side, summary] of [
        ['channel', d.channel],
        ['repository', d.repository],
      ] as const) {
        rows.push(
          row({
            scenario,
            figure: side === 'channel' ? `${c.figure} (assets:mark), median` : '  same, repository only',
            unit: 'ms',
            value: summary.median,
            baseline: d.raw.median,
            baselineName: 'raw UPDATE',
            // The raw UPDATE is shown as the floor; the channel's extra work is fixed (refs to rows,
            // the previous marks, the events), so the goal is the time itself.
            goal: `≤ ${c.limitMs} ms`,
            met: summary.median === null ? null : summary.median <= c.limitMs,
            ...(side === 'channel' ? note : {}),
          }),
        );
      }
    }
  } finally {
    plain.close();
  }
  return { rows, details };
}
