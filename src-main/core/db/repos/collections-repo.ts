// Collections: hand-made ones hold assets (an asset may sit in several), smart ones are saved
// searches (a library filter stored as JSON) and hold nothing of their own. Local only.
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, sql } from '../sql.ts';

export interface CollectionRow {
  id: number;
  name: string;
  /** JSON of the saved search; NULL for a hand-made collection. */
  search: string | null;
  created_at: number;
  updated_at: number;
  /** Items held (hand-made collections; smart ones are counted by their search). */
  items: number;
}

export type CollectionNameProblem = 'taken' | 'empty';

/** SQLite's refusals, as the problem a person can fix. */
function nameProblem(error: unknown): CollectionNameProblem | null {
  const message = error instanceof Error ? error.message : '';
  if (/UNIQUE constraint failed: collections\.name/.test(message)) return 'taken';
  if (/CHECK constraint failed/.test(message)) return 'empty';
  return null;
}

export class CollectionNameError extends Error {
  readonly problem: CollectionNameProblem;
  constructor(problem: CollectionNameProblem) {
    super(problem === 'taken' ? 'A collection with that name exists' : 'The name is empty');
    this.problem = problem;
  }
}

const json = (seqs: readonly number[]) => JSON.stringify(seqs);

export class CollectionsRepo {
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 32);
  }

  list(): CollectionRow[] {
    return this.#q.all<CollectionRow>(sql`
      SELECT c.id, c.name, c.search, c.created_at, c.updated_at,
        (SELECT count(*) FROM collection_items i WHERE i.collection_id = c.id) AS items
      FROM collections c ORDER BY c.name COLLATE NOCASE, c.id`);
  }

  get(id: number): CollectionRow | undefined {
    return this.#q.get<CollectionRow>(sql`
      SELECT c.id, c.name, c.search, c.created_at, c.updated_at,
        (SELECT count(*) FROM collection_items i WHERE i.collection_id = c.id) AS items
      FROM collections c WHERE c.id = ${id}`);
  }

  create(name: string, search: unknown, now: number): number {
    try {
      const row = this.#q.get<{ id: number }>(sql`
        INSERT INTO collections (name, search, created_at, updated_at)
        VALUES (${name.trim()}, ${search === null || search === undefined ? null : JSON.stringify(search)}, ${now}, ${now})
        RETURNING id`);
      return row?.id ?? 0;
    } catch (error) {
      const problem = nameProblem(error);
      if (problem) throw new CollectionNameError(problem);
      throw error;
    }
  }

  rename(id: number, name: string, now: number): boolean {
    try {
      return this.#q.run(sql`UPDATE collections SET name = ${name.trim()}, updated_at = ${now} WHERE id = ${id}`) > 0;
    } catch (error) {
      const problem = nameProblem(error);
      if (problem) throw new CollectionNameError(problem);
      throw error;
    }
  }

  /** Replaces a smart collection's search. */
  setSearch(id: number, search: unknown, now: number): boolean {
    return (
      this.#q.run(
        sql`UPDATE collections SET search = ${JSON.stringify(search)}, updated_at = ${now}
            WHERE id = ${id} AND search IS NOT NULL`,
      ) > 0
    );
  }

  delete(id: number): boolean {
    return this.#q.run(sql`DELETE FROM collections WHERE id = ${id}`) > 0;
  }

  /** Puts assets in a hand-made collection; returns how many were new to it. */
  add(id: number, seqs: readonly number[], now: number): number {
    if (seqs.length === 0) return 0;
    const added = this.#q.run(sql`
      INSERT INTO collection_items (collection_id, asset_seq, added_at)
      SELECT ${id}, a.seq, ${now} FROM assets a WHERE a.seq IN (SELECT value FROM json_each(${json(seqs)}))
      ON CONFLICT DO NOTHING`);
    if (added > 0) this.#q.run(sql`UPDATE collections SET updated_at = ${now} WHERE id = ${id}`);
    return added;
  }

  remove(id: number, seqs: readonly number[], now: number): number {
    if (seqs.length === 0) return 0;
    const removed = this.#q.run(sql`
      DELETE FROM collection_items
      WHERE collection_id = ${id} AND asset_seq IN (SELECT value FROM json_each(${json(seqs)}))`);
    if (removed > 0) this.#q.run(sql`UPDATE collections SET updated_at = ${now} WHERE id = ${id}`);
    return removed;
  }

  /** The hand-made collections each of these assets sits in. */
  membership(seqs: readonly number[]): { asset_seq: number; collection_id: number }[] {
    if (seqs.length === 0) return [];
    return this.#q.all(sql`
      SELECT asset_seq, collection_id FROM collection_items
      WHERE asset_seq IN (SELECT value FROM json_each(${json(seqs)})) ORDER BY asset_seq, collection_id`);
  }

  /** Every asset of a hand-made collection, newest first (for export). */
  itemSeqs(id: number): number[] {
    return this.#q
      .all<{ seq: number }>(
        sql`
        SELECT a.seq FROM collection_items i JOIN assets a ON a.seq = i.asset_seq
        WHERE i.collection_id = ${id} ORDER BY a.created_at DESC, a.seq DESC`,
      )
      .map((row) => row.seq);
  }
}
