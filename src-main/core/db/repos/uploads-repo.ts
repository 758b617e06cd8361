// Image uploads to a model (training inputs, reference images) with progress and outcome, what
// the checks found before sending, and the hashes the app already knows per model and type.
import type BetterSqlite3 from 'better-sqlite3';
import type { UploadType } from '../../../contract/service.ts';
import { StatementCache, setClause, sql, type SqlFragment } from '../sql.ts';

export type UploadState = 'queued' | 'uploading' | 'succeeded' | 'failed' | 'cancelled';

export interface UploadRow {
  id: number;
  model_id: string;
  type: UploadType;
  source_path: string;
  file_name: string;
  bytes: number | null;
  sha256: string | null;
  state: UploadState;
  progress: number;
  image_id: string | null;
  error: string | null;
  attempts: number;
  created_at: number;
  updated_at: number;
  /** What the checks before sending found (schema 3). */
  width: number | null;
  height: number | null;
  warning: string | null;
}

export interface NewUpload {
  modelId: string;
  type: UploadType;
  sourcePath: string;
  fileName: string;
  bytes: number | null;
  sha256: string | null;
  width?: number | null;
  height?: number | null;
  warning?: string | null;
  now: number;
}

export interface UploadPatch {
  state?: UploadState;
  /** 0 to 1. */
  progress?: number;
  imageId?: string | null;
  error?: string | null;
  attempts?: number;
  sha256?: string | null;
  bytes?: number | null;
}

const COLUMNS = sql`id, model_id, type, source_path, file_name, bytes, sha256, state, progress, image_id, error,
  attempts, created_at, updated_at, width, height, warning`;

const PATCH_COLUMNS: Record<keyof UploadPatch | 'updatedAt', SqlFragment> = {
  state: sql`state`,
  progress: sql`progress`,
  imageId: sql`image_id`,
  error: sql`error`,
  attempts: sql`attempts`,
  sha256: sql`sha256`,
  bytes: sql`bytes`,
  updatedAt: sql`updated_at`,
};

export class UploadsRepo {
  readonly #q: StatementCache;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 24);
  }

  insert(upload: NewUpload): UploadRow {
    const { modelId, type, sourcePath, fileName, bytes, sha256, now } = upload;
    const row = this.#q.get<UploadRow>(sql`
      INSERT INTO uploads (model_id, type, source_path, file_name, bytes, sha256, state, created_at, updated_at,
        width, height, warning)
      VALUES (${modelId}, ${type}, ${sourcePath}, ${fileName}, ${bytes}, ${sha256}, 'queued', ${now}, ${now},
        ${upload.width ?? null}, ${upload.height ?? null}, ${upload.warning ?? null})
      RETURNING ${COLUMNS}`);
    if (!row) throw new Error('The upload row vanished right after insert');
    return row;
  }

  get(id: number): UploadRow | undefined {
    return this.#q.get<UploadRow>(sql`SELECT ${COLUMNS} FROM uploads WHERE id = ${id}`);
  }

  mustGet(id: number): UploadRow {
    const row = this.get(id);
    if (!row) throw new Error(`Upload ${id} vanished`);
    return row;
  }

  /** Every upload, or one model's, oldest first. */
  list(modelId?: string): UploadRow[] {
    const where = modelId === undefined ? sql`` : sql`WHERE model_id = ${modelId}`;
    return this.#q.all<UploadRow>(sql`SELECT ${COLUMNS} FROM uploads ${where} ORDER BY id`);
  }

  inState(state: UploadState): UploadRow[] {
    return this.#q.all<UploadRow>(sql`SELECT ${COLUMNS} FROM uploads WHERE state = ${state} ORDER BY id`);
  }

  /** Applies the patch and returns the row as it now is. */
  update(id: number, patch: UploadPatch, now: number): UploadRow {
    const sets = setClause(PATCH_COLUMNS, { ...patch, updatedAt: now });
    if (sets) this.#q.run(sql`UPDATE uploads SET ${sets} WHERE id = ${id}`);
    return this.mustGet(id);
  }

  delete(id: number): boolean {
    return this.#q.run(sql`DELETE FROM uploads WHERE id = ${id}`) > 0;
  }

  /** Hashes of images this model already has of this type: sent, being sent, or on the service. */
  knownHashes(modelId: string, type: UploadType): Set<string> {
    const rows = this.#q.all<{ sha256: string }>(sql`
      SELECT sha256 FROM uploads
      WHERE model_id = ${modelId} AND type = ${type} AND sha256 IS NOT NULL
        AND state IN ('queued', 'uploading', 'succeeded')
      UNION
      SELECT sha256 FROM assets
      WHERE model_id = ${modelId} AND type = ${type} AND origin = 'uploaded' AND sha256 IS NOT NULL`);
    return new Set(rows.map((r) => r.sha256));
  }

  /** Queued or running here, not yet on the service (succeeded ones count as the model's images). */
  pendingCount(modelId: string, type: UploadType): number {
    const row = this.#q.get<{ count: number }>(sql`
      SELECT count(*) AS count FROM uploads
      WHERE model_id = ${modelId} AND type = ${type} AND state IN ('queued', 'uploading')`);
    return row?.count ?? 0;
  }
}
