// Reads the demo service's hints (`data.demo` on its records: favourite, collections, the trained
// model's name) so the demo account opens organised like a library in use. Demo accounts only.
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, sql } from '../sql.ts';

export class DemoHintsRepo {
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 8);
  }

  /** Whether any record carries hints (false until the first refresh brought the library). */
  any(): boolean {
    return (
      (this.#q.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM (SELECT 1 FROM assets WHERE json_extract(data, '$.demo') IS NOT NULL LIMIT 1)`,
      )?.n ?? 0) > 0
    );
  }

  favoriteSeqs(): number[] {
    return this.#q
      .all<{ seq: number }>(sql`SELECT seq FROM assets WHERE json_extract(data, '$.demo.favorite') = 1`)
      .map((row) => row.seq);
  }

  /** Collection name → the seqs the hints put in it, oldest first. */
  collectionMembers(): Map<string, number[]> {
    const rows = this.#q.all<{ name: string; seq: number }>(sql`
      SELECT c.value AS name, a.seq FROM assets a, json_each(a.data, '$.demo.collections') c
      WHERE json_extract(a.data, '$.demo.collections') IS NOT NULL
      ORDER BY a.created_at, a.seq`);
    const members = new Map<string, number[]>();
    for (const row of rows) members.set(row.name, [...(members.get(row.name) ?? []), row.seq]);
    return members;
  }

  /** Model id → the name its photos' hints give it. */
  modelLabels(): { modelId: string; label: string }[] {
    return this.#q.all<{ modelId: string; label: string }>(sql`
      SELECT DISTINCT model_id AS modelId, json_extract(data, '$.demo.modelLabel') AS label FROM assets
      WHERE model_id IS NOT NULL AND json_extract(data, '$.demo.modelLabel') IS NOT NULL`);
  }

  /** The newest generated images, to have on disk at once (their thumbnails fill the first screen). */
  newestImages(limit: number): { kind: 'image'; id: string }[] {
    return this.#q.all<{ kind: 'image'; id: string }>(sql`
      SELECT kind, id FROM assets WHERE kind = 'image' AND origin = 'generated' AND file_state = 'remote'
      ORDER BY created_at DESC, seq DESC LIMIT ${limit}`);
  }
}
