// Images and videos in the cache: upserts from server records that keep every local field,
// local file state for the download engine, and the library's read queries.
import type BetterSqlite3 from 'better-sqlite3';
import { requestedMedia, type MediaFacts } from '../../../contract/media-size.ts';
import type { AssetKind, AssetOrigin, AssetServerFields } from '../record-fields.ts';
import { preparedOnFirstUse, StatementCache, setClause, sql, type SqlFragment } from '../sql.ts';
import type { AssetRow, FactsFrom, FileState } from './asset-row.ts';
import { ASSET_ROW_COLUMNS } from './asset-row.ts';
import { countSections } from './asset-sections.ts';
import {
  countAssets,
  countMatching,
  layoutAssets,
  listAssets,
  seqsMatching,
  seqsOfFilter,
  searchAssets,
  type AssetCounts,
  type CoreAssetFilter,
  type AssetLayout,
  type AssetLayoutRequest,
  type AssetPage,
  type AssetPageRequest,
} from './assets-query.ts';

export type UpsertOutcome = 'inserted' | 'updated' | 'unchanged';

/** What sync needs to find assets the service no longer lists. */
export interface AssetSyncKey {
  seq: number;
  id: string;
  model_id: string | null;
  local_created_at: number;
  file_state: FileState;
  remote_state: 'present' | 'gone';
}

/** Local facts about how an asset was made; the engine records them when a job finishes. */
export interface GenerationInfo {
  jobId?: string | null;
  sourceAssetId?: string | null;
  prompt?: string | null;
  params?: unknown;
  preset?: string | null;
  frames?: unknown;
}

export interface LocalFileInfo {
  fileState: FileState;
  localPath?: string | null;
  bytes?: number | null;
  width?: number | null;
  height?: number | null;
  durationMs?: number | null;
  sha256?: string | null;
  thumbPath?: string | null;
}

/** Facts written with a local file (an upload's size read from its bytes) are the file's. */
const FILE_FACTS: readonly (keyof LocalFileInfo)[] = ['width', 'height', 'durationMs'];

/** The rank of a facts_from value: a source replaces the facts of an equal or worse one only. */
const factsRank = (column: string): string =>
  `(CASE ${column} WHEN 'file' THEN 3 WHEN 'service' THEN 2 WHEN 'request' THEN 1 ELSE 0 END)`;
const rankSql = (value: SqlFragment | FactsFrom): SqlFragment =>
  sql`(CASE ${value} WHEN 'file' THEN 3 WHEN 'service' THEN 2 WHEN 'request' THEN 1 ELSE 0 END)`;
const FACTS_WIN = `excluded.facts_from IS NOT NULL AND ${factsRank('excluded.facts_from')} >= ${factsRank('assets.facts_from')}`;
const factsSet = (column: string): string =>
  `${column} = CASE WHEN ${FACTS_WIN} THEN coalesce(excluded.${column}, assets.${column}) ELSE assets.${column} END`;

// Server columns follow the service; local columns (file state, paths, the request that made the
// asset) are never overwritten, and `data` hints only fill local columns that are still empty. The
// media facts (width, height, duration, format) follow the best source: the file's, else the
// service's, else the request's (schema 14).
const UPSERT = `
INSERT INTO assets (kind, id, origin, model_id, type, url, upscaled_image_id, upscaled_image_url, folder_id,
  public_media_id, liked, data, created_at, updated_at, server_hash, remote_state, local_created_at, job_id,
  source_asset_id, prompt, params, preset, width, height, duration_ms, format, facts_from, hls)
VALUES (@kind, @id, @origin, @modelId, @type, @url, @upscaledImageId, @upscaledImageUrl, @folderId,
  @publicMediaId, @liked, @data, coalesce(@createdAt, @now), @updatedAt, @serverHash, 'present', @now, @jobId,
  @sourceAssetId, @prompt, @params, @preset, @width, @height, @durationMs, @format, @factsFrom, @hls)
ON CONFLICT (kind, id) DO UPDATE SET
  origin = excluded.origin, model_id = excluded.model_id, type = excluded.type, url = excluded.url,
  upscaled_image_id = excluded.upscaled_image_id, upscaled_image_url = excluded.upscaled_image_url,
  folder_id = excluded.folder_id, public_media_id = excluded.public_media_id, liked = excluded.liked,
  data = excluded.data, created_at = coalesce(@createdAt, assets.created_at), updated_at = excluded.updated_at,
  server_hash = excluded.server_hash, remote_state = 'present', hls = excluded.hls,
  job_id = coalesce(assets.job_id, excluded.job_id),
  source_asset_id = coalesce(assets.source_asset_id, excluded.source_asset_id),
  prompt = coalesce(assets.prompt, excluded.prompt), params = coalesce(assets.params, excluded.params),
  preset = coalesce(assets.preset, excluded.preset),
  ${['width', 'height', 'duration_ms', 'format'].map(factsSet).join(',\n  ')},
  facts_from = CASE WHEN ${FACTS_WIN} THEN excluded.facts_from ELSE assets.facts_from END`;

const told = (facts: MediaFacts): boolean =>
  facts.width !== null || facts.height !== null || facts.durationMs !== null || facts.format !== null;

/** A record's facts: what the service's data says, else what the request in it asked for. */
function recordFacts(fields: AssetServerFields): MediaFacts & { factsFrom: FactsFrom | null } {
  const service = {
    width: fields.width ?? null,
    height: fields.height ?? null,
    durationMs: fields.durationMs ?? null,
    format: fields.format ?? null,
  };
  if (told(service)) return { ...service, factsFrom: 'service' };
  const asked = fields.params ? requestedMedia(fields.kind, JSON.parse(fields.params)) : null;
  return asked && told(asked) ? { ...asked, factsFrom: 'request' } : { ...service, factsFrom: null };
}

const GENERATION_COLUMNS: Record<keyof GenerationInfo, SqlFragment> = {
  jobId: sql`job_id`,
  sourceAssetId: sql`source_asset_id`,
  prompt: sql`prompt`,
  params: sql`params`,
  preset: sql`preset`,
  frames: sql`frames`,
};

const FILE_COLUMNS: Record<keyof LocalFileInfo, SqlFragment> = {
  fileState: sql`file_state`,
  localPath: sql`local_path`,
  bytes: sql`bytes`,
  width: sql`width`,
  height: sql`height`,
  durationMs: sql`duration_ms`,
  sha256: sql`sha256`,
  thumbPath: sql`thumb_path`,
};
const FILE_COLUMNS_WITH_FACTS = { ...FILE_COLUMNS, factsFrom: sql`facts_from` };

export class AssetsRepo {
  readonly #q: StatementCache;
  readonly #byKey: () => BetterSqlite3.Statement<[AssetKind, string], AssetRow>;
  readonly #bySeq: () => BetterSqlite3.Statement<[number], AssetRow>;
  readonly #hashOf: () => BetterSqlite3.Statement<
    [AssetKind, string],
    { server_hash: string | null; remote_state: string }
  >;
  readonly #upsert: () => BetterSqlite3.Statement;
  readonly #syncKeys: () => BetterSqlite3.Statement<[AssetKind], AssetSyncKey>;
  readonly #delete: () => BetterSqlite3.Statement<[number]>;
  readonly #markGone: () => BetterSqlite3.Statement<[number]>;
  readonly #linkUpscales: () => BetterSqlite3.Statement<[]>;
  readonly #byJob: () => BetterSqlite3.Statement<[string], AssetRow>;
  readonly #withFileState: () => BetterSqlite3.Statement<[FileState, number], AssetRow>;
  readonly #factsUnread: () => BetterSqlite3.Statement<[number], AssetRow>;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db);
    const columns = ASSET_ROW_COLUMNS.text;
    this.#byKey = preparedOnFirstUse(db, `SELECT ${columns} FROM assets a WHERE a.kind = ? AND a.id = ?`);
    this.#bySeq = preparedOnFirstUse(db, `SELECT ${columns} FROM assets a WHERE a.seq = ?`);
    this.#hashOf = preparedOnFirstUse(db, 'SELECT server_hash, remote_state FROM assets WHERE kind = ? AND id = ?');
    this.#upsert = preparedOnFirstUse(db, UPSERT);
    this.#syncKeys = preparedOnFirstUse(
      db,
      'SELECT seq, id, model_id, local_created_at, file_state, remote_state FROM assets WHERE kind = ?',
    );
    this.#delete = preparedOnFirstUse(db, 'DELETE FROM assets WHERE seq = ?');
    this.#markGone = preparedOnFirstUse(
      db,
      "UPDATE assets SET remote_state = 'gone' WHERE seq = ? AND remote_state <> 'gone'",
    );
    // An image listing `upscaledImageID` is the source of that upscale: record the lineage on the upscale.
    this.#linkUpscales = preparedOnFirstUse(
      db,
      `
      UPDATE assets SET source_asset_id = src.id
      FROM assets AS src
      WHERE assets.kind = 'image' AND assets.source_asset_id IS NULL
        AND src.kind = 'image' AND src.upscaled_image_id = assets.id`,
    );
    this.#byJob = preparedOnFirstUse(
      db,
      `SELECT ${columns} FROM assets a WHERE a.job_id = ? ORDER BY a.created_at, a.seq`,
    );
    this.#withFileState = preparedOnFirstUse(
      db,
      `SELECT ${columns} FROM assets a WHERE a.file_state = ? ORDER BY a.created_at DESC, a.seq DESC LIMIT ?`,
    );
    this.#factsUnread = preparedOnFirstUse(
      db,
      `SELECT ${columns} FROM assets a INDEXED BY assets_facts_unread
       WHERE a.file_state = 'downloaded' AND a.facts_from IS NOT 'file' ORDER BY a.created_at DESC, a.seq DESC LIMIT ?`,
    );
  }

  /** Downloaded assets whose facts were not read from their file yet, newest first (schema 14's index). */
  listFactsUnread(limit: number): AssetRow[] {
    return this.#factsUnread().all(limit);
  }

  get(kind: AssetKind, id: string): AssetRow | undefined {
    return this.#byKey().get(kind, id);
  }

  getBySeq(seq: number): AssetRow | undefined {
    return this.#bySeq().get(seq);
  }

  /** The local seqs of these assets (unknown ones are left out). */
  seqsOf(refs: readonly { kind: AssetKind; id: string }[]): number[] {
    if (refs.length === 0) return [];
    const keys = JSON.stringify(refs.map((ref) => [ref.kind, ref.id]));
    return this.#q
      .all<{ seq: number }>(
        sql`SELECT a.seq FROM json_each(${keys}) k
            JOIN assets a ON a.kind = json_extract(k.value, '$[0]') AND a.id = json_extract(k.value, '$[1]')`,
      )
      .map((row) => row.seq);
  }

  /** Kind and id of these seqs. */
  refsOf(seqs: readonly number[]): { kind: AssetKind; id: string; seq: number }[] {
    if (seqs.length === 0) return [];
    return this.#q.all(
      sql`SELECT a.kind, a.id, a.seq FROM assets a WHERE a.seq IN (SELECT value FROM json_each(${JSON.stringify(seqs)}))`,
    );
  }

  listByJob(jobId: string): AssetRow[] {
    return this.#byJob().all(jobId);
  }

  listByFileState(state: FileState, limit = 500): AssetRow[] {
    return this.#withFileState().all(state, limit);
  }

  /** Writes a record as the service sent it; an identical record (same digest) is not rewritten. */
  upsertFromServer(fields: AssetServerFields, now: number): UpsertOutcome {
    const existing = this.#hashOf().get(fields.kind, fields.id);
    if (existing && existing.server_hash === fields.serverHash && existing.remote_state === 'present') {
      return 'unchanged';
    }
    this.#upsert().run({
      ...fields,
      ...recordFacts(fields),
      liked: fields.liked ? 1 : 0,
      hls: fields.hls ? 1 : 0,
      now,
    });
    return existing ? 'updated' : 'inserted';
  }

  syncKeys(kind: AssetKind): AssetSyncKey[] {
    return this.#syncKeys().all(kind);
  }

  /**
   * The service no longer lists this asset. Without a local file it leaves the cache; with one
   * (or one on the way) it stays as an offline copy marked 'gone'. Returns what happened.
   */
  removeFromServer(key: Pick<AssetSyncKey, 'seq' | 'file_state'>): 'deleted' | 'gone' | 'unchanged' {
    if (key.file_state === 'remote' || key.file_state === 'failed') {
      return this.#delete().run(key.seq).changes > 0 ? 'deleted' : 'unchanged';
    }
    return this.#markGone().run(key.seq).changes > 0 ? 'gone' : 'unchanged';
  }

  delete(kind: AssetKind, id: string): boolean {
    const row = this.get(kind, id);
    return row ? this.#delete().run(row.seq).changes > 0 : false;
  }

  /** Fills source_asset_id of upscales from their sources' upscaledImageID; returns rows changed. */
  linkUpscaleSources(): number {
    return this.#linkUpscales().run().changes;
  }

  /**
   * Records (overwriting) how an asset was made; keys left undefined are left alone. The request's
   * size, length and format become the asset's facts until better ones come (the service's, the file's).
   */
  recordGeneration(kind: AssetKind, id: string, info: GenerationInfo): boolean {
    const json = (value: unknown) => (value === undefined ? undefined : value === null ? null : JSON.stringify(value));
    const sets = setClause(GENERATION_COLUMNS, { ...info, params: json(info.params), frames: json(info.frames) });
    if (!sets || this.#q.run(sql`UPDATE assets SET ${sets} WHERE kind = ${kind} AND id = ${id}`) === 0) return false;
    const asked = info.params ? requestedMedia(kind, info.params) : null;
    const row = asked && told(asked) ? this.get(kind, id) : undefined;
    if (asked && row) this.recordFacts(row.seq, asked, 'request');
    return true;
  }

  /**
   * Width, height, length and format from `from`: they replace facts from an equal or worse source
   * (request < service < file) and are left alone under a better one; a value not known keeps the
   * one there. Returns whether the row changed.
   */
  recordFacts(seq: number, facts: MediaFacts, from: FactsFrom): boolean {
    return (
      this.#q.run(
        sql`UPDATE assets SET width = coalesce(${facts.width}, width), height = coalesce(${facts.height}, height),
              duration_ms = coalesce(${facts.durationMs}, duration_ms), format = coalesce(${facts.format}, format),
              facts_from = ${from}
            WHERE seq = ${seq} AND ${rankSql(sql`facts_from`)} <= ${rankSql(from)}`,
      ) > 0
    );
  }

  /** A finished upscale, linked from its source now (the service's record says so at the next refresh). */
  setUpscaledVersion(sourceSeq: number, upscaledImageId: string, upscaledImageUrl: string): boolean {
    return (
      this.#q.run(
        sql`UPDATE assets SET upscaled_image_id = ${upscaledImageId}, upscaled_image_url = ${upscaledImageUrl}
            WHERE seq = ${sourceSeq} AND kind = 'image'`,
      ) > 0
    );
  }

  /** The download engine's view of the local copy: state, path (relative to the library), size, digest. */
  setLocalFile(seq: number, info: LocalFileInfo): boolean {
    const facts = FILE_FACTS.some((key) => info[key] !== undefined && info[key] !== null);
    const sets = facts
      ? setClause(FILE_COLUMNS_WITH_FACTS, { ...info, factsFrom: 'file' })
      : setClause(FILE_COLUMNS, info);
    return sets ? this.#q.run(sql`UPDATE assets SET ${sets} WHERE seq = ${seq}`) > 0 : false;
  }

  list(request: AssetPageRequest): AssetPage {
    return listAssets(this.#q, request);
  }

  /** The shapes and page cursors of a view, without its items (the grid's map of a long list). */
  layout(request: AssetLayoutRequest): AssetLayout {
    return layoutAssets(this.#q, request);
  }

  /** How many of a view's assets each date section holds (starts newest first: asset-sections.ts). */
  sectionCounts(filter: CoreAssetFilter, starts: readonly number[]): number[] {
    return countSections(this.#q, filter, starts);
  }

  search(query: string, limit: number, filter?: CoreAssetFilter): AssetRow[] {
    return searchAssets(this.#q, query, limit, filter);
  }

  counts(origin?: AssetOrigin): AssetCounts {
    return countAssets(this.#q, origin);
  }

  countMatching(filter: CoreAssetFilter): number {
    return countMatching(this.#q, filter);
  }

  seqsOfFilter(filter: CoreAssetFilter, limit: number): number[] {
    return seqsOfFilter(this.#q, filter, limit);
  }

  seqsMatching(filter: CoreAssetFilter, seqs: readonly number[]): number[] {
    return seqsMatching(this.#q, filter, seqs);
  }

  /** Stars or unstars (locally); returns the seqs that changed. */
  setFavorite(seqs: readonly number[], favorite: boolean): number[] {
    if (seqs.length === 0) return [];
    return this.#q
      .all<{ seq: number }>(
        sql`UPDATE assets SET favorite = ${favorite ? 1 : 0}
            WHERE seq IN (SELECT value FROM json_each(${JSON.stringify(seqs)})) AND favorite <> ${favorite ? 1 : 0}
            RETURNING seq`,
      )
      .map((row) => row.seq);
  }
}
