// The user's marks on assets (schema 15): 0–5 stars and a pick/reject flag, local only. Reads the
// marks of a set of assets, sets them in one statement, and reads the counts the triggers keep.
import type BetterSqlite3 from 'better-sqlite3';
import type { AssetOrigin } from '../record-fields.ts';
import { joinSql, StatementCache, sql, type SqlFragment } from '../sql.ts';
import type { AssetRow } from './asset-row.ts';

export type AssetFlag = NonNullable<AssetRow['flag']>;

export interface MarkRow {
  seq: number;
  kind: AssetRow['kind'];
  id: string;
  rating: number;
  flag: AssetFlag | null;
}

/** What to set: an absent field is left as each asset has it. */
export interface MarkChange {
  rating?: number;
  flag?: AssetFlag | null;
}

/** The marks' counts: picks, rejects and how many assets have exactly 0…5 stars. */
export interface MarkCounts {
  picks: number;
  rejects: number;
  byRating: number[];
}

const seqList = (seqs: readonly number[]): SqlFragment => sql`(SELECT value FROM json_each(${JSON.stringify(seqs)}))`;

/**
 * From the trigger-kept asset_mark_counts (a few dozen rows at most, whatever the library size);
 * `total` (the assets counted, of `origin` when given) gives the unrated.
 */
export function countMarks(q: StatementCache, total: number, origin?: AssetOrigin): MarkCounts {
  const where = origin === undefined ? sql`` : sql` AND origin = ${origin}`;
  const rows = q.all<{ rating: number; flag: string; n: number }>(
    sql`SELECT rating, flag, sum(n) AS n FROM asset_mark_counts WHERE n > 0${where} GROUP BY rating, flag`,
  );
  const counts: MarkCounts = { picks: 0, rejects: 0, byRating: [0, 0, 0, 0, 0, 0] };
  let rated = 0;
  for (const row of rows) {
    if (row.flag === 'pick') counts.picks += row.n;
    else if (row.flag === 'reject') counts.rejects += row.n;
    if (row.rating > 0) {
      counts.byRating[row.rating] = (counts.byRating[row.rating] ?? 0) + row.n;
      rated += row.n;
    }
  }
  counts.byRating[0] = Math.max(0, total - rated);
  return counts;
}

export class MarksRepo {
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db);
  }

  /**
   * The marks of these assets by kind and id, in one statement (unknown ones are left out; a ref
   * given twice gives its row twice), in no particular order.
   */
  marksOfRefs(refs: readonly { kind: AssetRow['kind']; id: string }[]): MarkRow[] {
    if (refs.length === 0) return [];
    const keys = JSON.stringify(refs.map((ref) => [ref.kind, ref.id]));
    return this.#q.all<MarkRow>(
      sql`SELECT a.seq, a.kind, a.id, a.rating, a.flag FROM json_each(${keys}) k
          JOIN assets a ON a.kind = k.value ->> 0 AND a.id = k.value ->> 1`,
    );
  }

  /** The marks of these seqs (unknown seqs are left out), in no particular order. */
  marksOf(seqs: readonly number[]): MarkRow[] {
    if (seqs.length === 0) return [];
    return this.#q.all<MarkRow>(
      sql`SELECT a.seq, a.kind, a.id, a.rating, a.flag FROM assets a WHERE a.seq IN ${seqList(seqs)}`,
    );
  }

  /** Sets the change on these seqs; returns the seqs whose marks really changed. */
  setMarks(seqs: readonly number[], change: MarkChange): number[] {
    if (seqs.length === 0) return [];
    const sets: SqlFragment[] = [];
    const differs: SqlFragment[] = [];
    if (change.rating !== undefined) {
      sets.push(sql`rating = ${change.rating}`);
      differs.push(sql`rating IS NOT ${change.rating}`);
    }
    if (change.flag !== undefined) {
      sets.push(sql`flag = ${change.flag}`);
      differs.push(sql`flag IS NOT ${change.flag}`);
    }
    if (sets.length === 0) return [];
    return this.#q
      .all<{ seq: number }>(
        sql`UPDATE assets SET ${joinSql(sets, sql`, `)}
            WHERE seq IN ${seqList(seqs)} AND (${joinSql(differs, sql` OR `)}) RETURNING seq`,
      )
      .map((row) => row.seq);
  }

  counts(total: number, origin?: AssetOrigin): MarkCounts {
    return countMarks(this.#q, total, origin);
  }
}
