// A tagged template for composing SQL from fixed fragments: text comes only from template
// literals in our source, every interpolated value becomes a bound parameter.
import type BetterSqlite3 from 'better-sqlite3';

export type SqlValue = string | number | bigint | null;

const FRAGMENT = Symbol('SqlFragment');

export interface SqlFragment {
  readonly [FRAGMENT]: true;
  readonly text: string;
  readonly params: readonly SqlValue[];
}

const isFragment = (value: unknown): value is SqlFragment =>
  typeof value === 'object' && value !== null && FRAGMENT in value;

/** `sql\`a = ${x} AND ${otherFragment}\`` → text with `?` for values, fragments spliced in. */
export function sql(strings: TemplateStringsArray, ...values: (SqlValue | SqlFragment)[]): SqlFragment {
  let text = strings[0] ?? '';
  const params: SqlValue[] = [];
  values.forEach((value, i) => {
    if (isFragment(value)) {
      text += value.text;
      params.push(...value.params);
    } else {
      text += '?';
      params.push(value);
    }
    text += strings[i + 1] ?? '';
  });
  return { [FRAGMENT]: true, text, params };
}

export const emptySql: SqlFragment = sql``;

/**
 * A whole number written into the text, for a LIMIT the planner should see: SQLite stops a scan
 * that is already in order after a literal LIMIT's rows, and reads on to the end under a bound one
 * (SQLite 3.54: 2.7 against 11 µs for the first 6 of 200 rows). Each value is a statement of its
 * own, so only for the few values a caller uses.
 */
export function sqlInteger(value: number): SqlFragment {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Not a whole number for SQL text: ${value}`);
  return { [FRAGMENT]: true, text: String(value), params: [] };
}

/** Joins fragments with a fixed separator fragment (e.g. sql` AND `). */
export function joinSql(fragments: readonly SqlFragment[], separator: SqlFragment): SqlFragment {
  return fragments.reduce<SqlFragment>(
    (acc, fragment, i) => (i === 0 ? fragment : sql`${acc}${separator}${fragment}`),
    emptySql,
  );
}

/**
 * A fixed statement prepared at its first use, then kept. Opening an account prepares nothing:
 * preparing every repository's statements up front was a measurable part of a start.
 */
export function preparedOnFirstUse<Params extends unknown[] = unknown[], Row = unknown>(
  db: BetterSqlite3.Database,
  text: string,
): () => BetterSqlite3.Statement<Params, Row> {
  let statement: BetterSqlite3.Statement<Params, Row> | undefined;
  return () => (statement ??= db.prepare<Params, Row>(text));
}

/**
 * Prepared statements keyed by their text. Composed queries come in a small, fixed number of
 * shapes (one per combination of filters), so each shape is prepared once and reused.
 */
export class StatementCache {
  private readonly db: BetterSqlite3.Database;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly max: number;

  constructor(db: BetterSqlite3.Database, max = 128) {
    this.db = db;
    this.max = max;
  }

  all<Row>(query: SqlFragment): Row[] {
    return this.statement(query.text).all(...query.params) as Row[];
  }

  get<Row>(query: SqlFragment): Row | undefined {
    return this.statement(query.text).get(...query.params) as Row | undefined;
  }

  /** Rows as arrays of their columns (no object per row: for long scans of a few columns). */
  raw<Row extends unknown[]>(query: SqlFragment): Row[] {
    const statement = this.statement(query.text);
    try {
      return statement.raw(true).all(...query.params) as Row[];
    } finally {
      statement.raw(false);
    }
  }

  run(query: SqlFragment): number {
    return this.statement(query.text).run(...query.params).changes;
  }

  private statement(text: string): BetterSqlite3.Statement {
    let statement = this.statements.get(text);
    if (statement) {
      // Refresh recency so the map's insertion order stays least-recently-used first.
      this.statements.delete(text);
    } else {
      statement = this.db.prepare(text);
      if (this.statements.size >= this.max) {
        const oldest = this.statements.keys().next().value;
        if (oldest !== undefined) this.statements.delete(oldest);
      }
    }
    this.statements.set(text, statement);
    return statement;
  }
}

/**
 * `col = ?, col = ?` for the keys of `patch` that are present (undefined = leave alone), using
 * only the column fragments of a fixed map. NULL when nothing would change.
 */
export function setClause<K extends string>(
  columns: Record<K, SqlFragment>,
  patch: Partial<Record<K, SqlValue>>,
): SqlFragment | null {
  const sets = (Object.keys(columns) as K[])
    .filter((key) => patch[key] !== undefined)
    .map((key) => sql`${columns[key]} = ${patch[key] ?? null}`);
  return sets.length === 0 ? null : joinSql(sets, sql`, `);
}
