// Image uploads to a model (training inputs, reference images) with progress and outcome.
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
}

export interface NewUpload {
  modelId: string;
  type: UploadType;
  sourcePath: string;
  fileName: string;
  bytes: number | null;
  sha256: string | null;
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

const COLUMNS = `id, model_id, type, source_path, file_name, bytes, sha256, state, progress, image_id, error, attempts,
  created_at, updated_at`;

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
  readonly #insert: BetterSqlite3.Statement;
  readonly #get: BetterSqlite3.Statement<[number], UploadRow>;
  readonly #byModel: BetterSqlite3.Statement<[string], UploadRow>;
  readonly #active: BetterSqlite3.Statement<[], UploadRow>;
  readonly #delete: BetterSqlite3.Statement<[number]>;

  constructor(db: BetterSqlite3.Database) {
    this.#q = new StatementCache(db, 16);
    this.#insert = db.prepare(`
      INSERT INTO uploads (model_id, type, source_path, file_name, bytes, sha256, state, created_at, updated_at)
      VALUES (@modelId, @type, @sourcePath, @fileName, @bytes, @sha256, 'queued', @now, @now)`);
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM uploads WHERE id = ?`);
    this.#byModel = db.prepare(`SELECT ${COLUMNS} FROM uploads WHERE model_id = ? ORDER BY id`);
    this.#active = db.prepare(`SELECT ${COLUMNS} FROM uploads WHERE state IN ('queued', 'uploading') ORDER BY id`);
    this.#delete = db.prepare('DELETE FROM uploads WHERE id = ?');
  }

  insert(upload: NewUpload): UploadRow {
    const info = this.#insert.run(upload);
    const row = this.get(Number(info.lastInsertRowid));
    if (!row) throw new Error('The upload row vanished right after insert');
    return row;
  }

  get(id: number): UploadRow | undefined {
    return this.#get.get(id);
  }

  listByModel(modelId: string): UploadRow[] {
    return this.#byModel.all(modelId);
  }

  listActive(): UploadRow[] {
    return this.#active.all();
  }

  update(id: number, patch: UploadPatch, now: number): boolean {
    const sets = setClause(PATCH_COLUMNS, { ...patch, updatedAt: now });
    return sets ? this.#q.run(sql`UPDATE uploads SET ${sets} WHERE id = ${id}`) > 0 : false;
  }

  delete(id: number): boolean {
    return this.#delete.run(id).changes > 0;
  }
}
