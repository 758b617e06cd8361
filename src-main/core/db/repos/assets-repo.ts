// Images and videos in the cache: upserts from server records that keep every local field,
// local file state for the download engine, and the library's read queries.
import type BetterSqlite3 from 'better-sqlite3';
import type { AssetKind, AssetOrigin, AssetServerFields } from '../record-fields.ts';
import { preparedOnFirstUse, StatementCache, setClause, sql, type SqlFragment } from '../sql.ts';
import type { AssetRow, FileState } from './asset-row.ts';
import { ASSET_ROW_COLUMNS } from './asset-row.ts';
import {
  countAssets,
  countMatching,
  layoutAssets,
  listAssets,
  seqsMatching,
  seqsOfFilter,
  searchAssets,
  type AssetCounts,
  type AssetFilter,
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

// Server columns follow the service; local columns (file state, paths, the request that made the
// asset) are never overwritten, and `data` hints only fill local columns that are still empty.
const UPSERT = `
INSERT INTO assets (kind, id, origin, model_id, type, url, upscaled_image_id, upscaled_image_url, folder_id,
  public_media_id, liked, data, created_at, updated_at, server_hash, remote_state, local_created_at, job_id,
  source_asset_id, prompt, params, preset, width, height, duration_ms, hls)
VALUES (@kind, @id, @origin, @modelId, @type, @url, @upscaledImageId, @upscaledImageUrl, @folderId,
  @publicMediaId, @liked, @data, coalesce(@createdAt, @now), @updatedAt, @serverHash, 'present', @now, @jobId,
  @sourceAssetId, @prompt, @params, @preset, @width, @height, @durationMs, @hls)
ON CONFLICT (kind, id) DO UPDATE SET
  origin = excluded.origin, model_id = excluded.model_id, type = excluded.type, url = excluded.url,
  upscaled_image_id = excluded.upscaled_image_id, upscaled_image_url = excluded.upscaled_image_url,
  folder_id = excluded.folder_id, public_media_id = excluded.public_media_id, liked = excluded.liked,
  data = excluded.data, created_at = coalesce(@createdAt, assets.created_at), updated_at = excluded.updated_at,
  server_hash = excluded.server_hash, remote_state = 'present', hls = excluded.hls,
  job_id = coalesce(assets.job_id, excluded.job_id),
  source_asset_id = coalesce(assets.source_asset_id, excluded.source_asset_id),
  prompt = coalesce(assets.prompt, excluded.prompt), params = coalesce(assets.params, excluded.params),
  preset = coalesce(assets.preset, excluded.preset), width = coalesce(assets.width, excluded.width),
  height = coalesce(assets.height, excluded.height), duration_ms = coalesce(assets.duration_ms, excluded.duration_ms)`;

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
    this.#upsert().run({ ...fields, liked: fields.liked ? 1 : 0, hls: fields.hls ? 1 : 0, now });
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

  /** Records (overwriting) how an asset was made; keys left undefined are left alone. */
  recordGeneration(kind: AssetKind, id: string, info: GenerationInfo): boolean {
    const json = (value: unknown) => (value === undefined ? undefined : value === null ? null : JSON.stringify(value));
    const sets = setClause(GENERATION_COLUMNS, { ...info, params: json(info.params), frames: json(info.frames) });
    return sets ? this.#q.run(sql`UPDATE assets SET ${sets} WHERE kind = ${kind} AND id = ${id}`) > 0 : false;
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
    const sets = setClause(FILE_COLUMNS, info);
    return sets ? this.#q.run(sql`UPDATE assets SET ${sets} WHERE seq = ${seq}`) > 0 : false;
  }

  list(request: AssetPageRequest): AssetPage {
    return listAssets(this.#q, request);
  }

  /** The shapes and page cursors of a view, without its items (the grid's map of a long list). */
  layout(request: AssetLayoutRequest): AssetLayout {
    return layoutAssets(this.#q, request);
  }

  search(query: string, limit: number, filter?: AssetFilter): AssetRow[] {
    return searchAssets(this.#q, query, limit, filter);
  }

  counts(origin?: AssetOrigin): AssetCounts {
    return countAssets(this.#q, origin);
  }

  countMatching(filter: AssetFilter): number {
    return countMatching(this.#q, filter);
  }

  seqsOfFilter(filter: AssetFilter, limit: number): number[] {
    return seqsOfFilter(this.#q, filter, limit);
  }

  seqsMatching(filter: AssetFilter, seqs: readonly number[]): number[] {
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
