// An asset's relatives in the cache (the family tree, schema 18): each relation is one indexed
// query, cut at a limit and counted. Sources of truth: an upscale's source_asset_id; the references
// a request named (asset_refs, by URL path: assets.url_path); a trained model's training photos
// (its uploaded modelInput images) and results; a job's outputs (job_id); and the jobs that
// repeated, varied or remixed a job (jobs.origin_job_id).
import type BetterSqlite3 from 'better-sqlite3';
import { StatementCache, sql, sqlInteger, type SqlFragment } from '../sql.ts';
import { ASSET_ROW_COLUMNS, type AssetRow } from './asset-row.ts';

/** Some of a relation's rows and how many there are in all. */
export interface RelativeRows {
  rows: AssetRow[];
  total: number;
}

/** A parent named by a request's reference, with the role the request gave it. */
export type ReferenceParentRow = AssetRow & { ref_role: string };

/** What a reference's role makes of its asset: a video's first or last frame, or a reference. */
export type ReferenceRole = 'first_frame' | 'last_frame' | 'reference';
export const referenceRole = (role: string): ReferenceRole =>
  role === 'first_frame' || role === 'last_frame' ? role : 'reference';

const NEWEST = sql`a.created_at DESC, a.seq DESC`;

/**
 * The `familyOf` filter's term: the named assets (`image:<id>`, `video:<id>`) and their relatives, one
 * step each way (the relations of the family tree): an upscale's source and upscales, what a request
 * named and what named it, a job's other outputs and its variations, a model's training photos and
 * results. One subquery, evaluated once per page.
 */
export function familyOfTerm(keys: readonly string[]): SqlFragment {
  const named = JSON.stringify(keys);
  return sql`a.seq IN (
    WITH sel AS (
      SELECT s.seq, s.kind, s.id, s.job_id, s.source_asset_id, s.url_path, s.model_id, s.origin, s.type
        FROM json_each(${named}) k
        JOIN assets s ON s.kind = substr(k.value, 1, instr(k.value, ':') - 1)
                     AND s.id = substr(k.value, instr(k.value, ':') + 1)),
    origins AS (SELECT origin_job_id AS id FROM jobs WHERE job_id IN (SELECT job_id FROM sel) AND origin_job_id IS NOT NULL),
    related_jobs AS (
      SELECT job_id AS id FROM sel WHERE job_id IS NOT NULL
      UNION SELECT id FROM origins
      UNION SELECT job_id FROM jobs WHERE job_id IS NOT NULL
        AND (origin_job_id IN (SELECT job_id FROM sel) OR origin_job_id IN (SELECT id FROM origins)))
    SELECT seq FROM sel
    UNION SELECT r.seq FROM assets r WHERE r.kind = 'image' AND r.id IN (SELECT source_asset_id FROM sel)
    UNION SELECT r.seq FROM assets r WHERE r.kind = 'image' AND r.source_asset_id IN (SELECT id FROM sel WHERE kind = 'image')
    UNION SELECT r.seq FROM assets r WHERE r.url_path IN
      (SELECT ref_path FROM asset_refs WHERE asset_seq IN (SELECT seq FROM sel))
    UNION SELECT asset_seq FROM asset_refs WHERE ref_path IN (SELECT url_path FROM sel WHERE url_path IS NOT NULL)
    UNION SELECT r.seq FROM assets r WHERE r.job_id IN (SELECT id FROM related_jobs)
    UNION SELECT r.seq FROM assets r WHERE r.origin = 'uploaded' AND r.type = 'modelInput'
      AND r.model_id IN (SELECT model_id FROM sel WHERE origin = 'generated')
    UNION SELECT r.seq FROM assets r WHERE r.origin = 'generated'
      AND r.model_id IN (SELECT model_id FROM sel WHERE origin = 'uploaded' AND type = 'modelInput'))`;
}

export class LineageRepo {
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 32);
  }

  /** Rows of `where` (over `assets a`), newest first, cut at `limit`, and their count. */
  #relatives(where: SqlFragment, limit: number): RelativeRows {
    const rows = this.#q.all<AssetRow>(
      sql`SELECT ${ASSET_ROW_COLUMNS} FROM assets a WHERE ${where} ORDER BY ${NEWEST} LIMIT ${sqlInteger(limit)}`,
    );
    const total =
      rows.length < limit
        ? rows.length
        : (this.#q.get<{ n: number }>(sql`SELECT count(*) AS n FROM assets a WHERE ${where}`)?.n ?? 0);
    return { rows, total };
  }

  /** The assets the request of asset `seq` named as frames or references (in the library), in its order. */
  referenceParents(seq: number): ReferenceParentRow[] {
    return this.#q.all<ReferenceParentRow>(
      sql`SELECT ${ASSET_ROW_COLUMNS}, r.role AS ref_role FROM asset_refs r
            JOIN assets a ON a.url_path = r.ref_path
          WHERE r.asset_seq = ${seq} ORDER BY r.role, a.seq`,
    );
  }

  /** The assets whose request named asset `seq` (by its URL path) as a frame or reference, of `kind`. */
  referenceChildren(seq: number, kind: 'image' | 'video', limit: number): RelativeRows {
    return this.#relatives(
      sql`a.kind = ${kind} AND a.seq IN (SELECT r.asset_seq FROM asset_refs r
            WHERE r.ref_path = (SELECT url_path FROM assets WHERE seq = ${seq}) AND r.asset_seq <> ${seq})`,
      limit,
    );
  }

  /** The upscales made of image `id`. */
  upscales(id: string, limit: number): RelativeRows {
    return this.#relatives(sql`a.source_asset_id = ${id} AND a.kind = 'image'`, limit);
  }

  /** The other outputs of job `jobId`. */
  sameJob(jobId: string, exceptSeq: number, limit: number): RelativeRows {
    return this.#relatives(sql`a.job_id = ${jobId} AND a.seq <> ${exceptSeq}`, limit);
  }

  /**
   * The outputs of the jobs related to job `jobId` by "Generate again", "Vary" or a remix: the job
   * it repeated, those that repeated it, and those that repeated the same job as it did.
   */
  variations(jobId: string, limit: number): RelativeRows {
    return this.#relatives(
      sql`a.job_id IN (
            WITH origin AS (SELECT origin_job_id AS id FROM jobs WHERE job_id = ${jobId} AND origin_job_id IS NOT NULL)
            SELECT id FROM origin
            UNION SELECT job_id FROM jobs WHERE origin_job_id = ${jobId} AND job_id IS NOT NULL
            UNION SELECT job_id FROM jobs WHERE origin_job_id IN (SELECT id FROM origin) AND job_id IS NOT NULL)
          AND a.job_id IS NOT ${jobId}`,
      limit,
    );
  }

  /** The photos model `modelId` was trained on (its uploaded modelInput images). */
  trainingPhotos(modelId: string, limit: number): RelativeRows {
    return this.#relatives(sql`a.origin = 'uploaded' AND a.model_id = ${modelId} AND a.type = 'modelInput'`, limit);
  }

  /** What model `modelId` made. */
  modelResults(modelId: string, limit: number): RelativeRows {
    return this.#relatives(sql`a.model_id = ${modelId} AND a.origin = 'generated'`, limit);
  }
}
