// Schema 18: what the family tree (issue 32 item 4) reads besides an upscale's source_asset_id.
//
// - `assets.url_path`: the path of the asset's media URL, without its origin or query (a virtual
//   column, indexed). A request names its reference images and frames by URL; the origin (a demo's
//   emulator port, a CDN host) and a signature in the query may change between refreshes while the
//   path names the same file, so a reference is matched to an asset by path.
// - `asset_refs`: each reference a request named (video `referenceImages` / `referenceVideos` with
//   their role, image `referenceImageURLs` as `reference_image`), by path, one row per asset and
//   reference, kept by triggers whenever an asset's `params` is written, filled here for the rows
//   there are. Indexed both ways: an asset's parents, and the assets made from a path (its children).
// - `jobs.origin_job_id`: the service job a job repeats, varies or remixes ("Generate again",
//   "Vary", Remix of one of its results), written when the job is sent: the results of both are
//   siblings.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

/** The path of the URL held in `expr` (SQL text): from the first '/' after '://', up to '?' or '#'. */
export function urlPathSql(expr: string): string {
  const rest = `substr(${expr}, instr(${expr}, '://') + 3)`;
  const path = `CASE WHEN instr(${expr}, '://') = 0 THEN ${expr} WHEN instr(${rest}, '/') = 0 THEN '/'
    ELSE substr(${rest}, instr(${rest}, '/')) END`;
  const cut = (text: string, mark: string) =>
    `CASE WHEN instr(${text}, '${mark}') > 0 THEN substr(${text}, 1, instr(${text}, '${mark}') - 1) ELSE ${text} END`;
  return cut(cut(path, '#'), '?');
}

/** The path of the `url` member of a reference object (j: a json_each row), or NULL. */
const memberPath = urlPathSql("CASE WHEN j.type = 'object' THEN json_extract(j.value, '$.url') END");

/**
 * The references named in a request, as SELECTs over `from` (the asset rows, aliased `a`): video
 * references with their role, image reference URLs as 'reference_image'.
 */
const referenceSelects = (from: string): string[] => [
  `SELECT a.seq, coalesce(json_extract(j.value, '$.role'), 'reference_image'), ${memberPath}
     FROM ${from}, json_each(a.params, '$.referenceImages') j
     WHERE json_type(a.params, '$.referenceImages') = 'array' AND j.type = 'object'
       AND json_type(j.value, '$.url') = 'text'`,
  `SELECT a.seq, coalesce(json_extract(j.value, '$.role'), 'reference_video'), ${memberPath}
     FROM ${from}, json_each(a.params, '$.referenceVideos') j
     WHERE json_type(a.params, '$.referenceVideos') = 'array' AND j.type = 'object'
       AND json_type(j.value, '$.url') = 'text'`,
  `SELECT a.seq, 'reference_image', ${urlPathSql("CASE WHEN j.type = 'text' THEN j.value END")}
     FROM ${from}, json_each(a.params, '$.referenceImageURLs') j
     WHERE json_type(a.params, '$.referenceImageURLs') = 'array' AND j.type = 'text'`,
];

const insertRefs = (from: string): string =>
  referenceSelects(from)
    .map((select) => `INSERT OR IGNORE INTO asset_refs (asset_seq, role, ref_path) ${select};`)
    .join('\n');

export const migration0018: Migration = {
  version: 18,
  name: 'asset-lineage',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      ALTER TABLE assets ADD COLUMN url_path TEXT GENERATED ALWAYS AS (${urlPathSql('url')}) VIRTUAL;
      CREATE INDEX assets_by_url_path ON assets (url_path) WHERE url_path IS NOT NULL;

      CREATE TABLE asset_refs (
        asset_seq INTEGER NOT NULL REFERENCES assets (seq) ON DELETE CASCADE,
        role      TEXT NOT NULL,   -- first_frame, last_frame, reference_image, reference_video
        ref_path  TEXT NOT NULL,   -- the reference's URL path (assets.url_path of the asset it names)
        PRIMARY KEY (asset_seq, role, ref_path)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX asset_refs_by_path ON asset_refs (ref_path);

      CREATE TRIGGER asset_refs_on_insert AFTER INSERT ON assets WHEN new.params IS NOT NULL BEGIN
        ${insertRefs('(SELECT new.seq AS seq, new.params AS params) a')}
      END;
      CREATE TRIGGER asset_refs_on_params AFTER UPDATE OF params ON assets
        WHEN new.params IS NOT old.params BEGIN
        DELETE FROM asset_refs WHERE asset_seq = new.seq;
        ${insertRefs('(SELECT new.seq AS seq, new.params AS params) a')}
      END;

      ${insertRefs("(SELECT seq, params FROM assets WHERE params LIKE '%reference%') a")}

      ALTER TABLE jobs ADD COLUMN origin_job_id TEXT;
      CREATE INDEX jobs_by_origin ON jobs (origin_job_id) WHERE origin_job_id IS NOT NULL;`);
  },
};
