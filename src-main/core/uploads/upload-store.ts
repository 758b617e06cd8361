// The upload queue's rows: the db's UploadsRepo plus what the checks found (schema 3 columns),
// the hashes the app knows per model and type, and the row → UploadInfo mapping.
import type BetterSqlite3 from 'better-sqlite3';
import type { UploadInfo, UploadStateInfo } from '../../contract/ipc/uploads.ts';
import type { UploadType } from '../../contract/service.ts';
import type { Cache } from '../db/cache.ts';
import type { UploadPatch, UploadRow } from '../db/repos/uploads-repo.ts';

export interface UploadEngineRow extends UploadRow {
  width: number | null;
  height: number | null;
  warning: string | null;
}

const COLUMNS = `id, model_id, type, source_path, file_name, bytes, sha256, state, progress, image_id, error, attempts,
  created_at, updated_at, width, height, warning`;

export class UploadStore {
  readonly #cache: Cache;
  readonly #get: BetterSqlite3.Statement<[number], UploadEngineRow>;
  readonly #all: BetterSqlite3.Statement<[], UploadEngineRow>;
  readonly #byModel: BetterSqlite3.Statement<[string], UploadEngineRow>;
  readonly #inState: BetterSqlite3.Statement<[string], UploadEngineRow>;
  readonly #setChecks: BetterSqlite3.Statement<{
    id: number;
    width: number | null;
    height: number | null;
    warning: string | null;
  }>;
  readonly #hashes: BetterSqlite3.Statement<[string, string, string, string], { sha256: string }>;
  readonly #pending: BetterSqlite3.Statement<[string, string], { count: number }>;

  constructor(cache: Cache) {
    this.#cache = cache;
    const db = cache.sqlite;
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM uploads WHERE id = ?`);
    this.#all = db.prepare(`SELECT ${COLUMNS} FROM uploads ORDER BY id`);
    this.#byModel = db.prepare(`SELECT ${COLUMNS} FROM uploads WHERE model_id = ? ORDER BY id`);
    this.#inState = db.prepare(`SELECT ${COLUMNS} FROM uploads WHERE state = ? ORDER BY id`);
    this.#setChecks = db.prepare(
      'UPDATE uploads SET width = @width, height = @height, warning = @warning WHERE id = @id',
    );
    this.#hashes = db.prepare(`
      SELECT sha256 FROM uploads WHERE model_id = ? AND type = ? AND sha256 IS NOT NULL AND state IN ('queued', 'uploading', 'succeeded')
      UNION
      SELECT sha256 FROM assets WHERE model_id = ? AND type = ? AND origin = 'uploaded' AND sha256 IS NOT NULL`);
    // Queued or running here, not yet on the service (succeeded ones are counted as the model's images).
    this.#pending = db.prepare(
      `SELECT count(*) AS count FROM uploads WHERE model_id = ? AND type = ? AND state IN ('queued', 'uploading')`,
    );
  }

  insert(
    upload: {
      modelId: string;
      type: UploadType;
      sourcePath: string;
      fileName: string;
      bytes: number;
      sha256: string;
      width: number | null;
      height: number | null;
      warning: string | null;
    },
    now: number,
  ): UploadEngineRow {
    return this.#cache.transaction(() => {
      const row = this.#cache.uploads.insert({ ...upload, now });
      this.#setChecks.run({ id: row.id, width: upload.width, height: upload.height, warning: upload.warning });
      return this.mustGet(row.id);
    });
  }

  get(id: number): UploadEngineRow | undefined {
    return this.#get.get(id);
  }

  mustGet(id: number): UploadEngineRow {
    const row = this.get(id);
    if (!row) throw new Error(`Upload ${id} vanished`);
    return row;
  }

  list(modelId?: string): UploadEngineRow[] {
    return modelId === undefined ? this.#all.all() : this.#byModel.all(modelId);
  }

  inState(state: UploadRow['state']): UploadEngineRow[] {
    return this.#inState.all(state);
  }

  update(id: number, patch: UploadPatch, now: number): UploadEngineRow {
    this.#cache.uploads.update(id, patch, now);
    return this.mustGet(id);
  }

  delete(id: number): void {
    this.#cache.uploads.delete(id);
  }

  knownHashes(modelId: string, type: UploadType): Set<string> {
    return new Set(this.#hashes.all(modelId, type, modelId, type).map((r) => r.sha256));
  }

  pendingCount(modelId: string, type: UploadType): number {
    return this.#pending.get(modelId, type)?.count ?? 0;
  }
}

export function toUploadInfo(row: UploadEngineRow, state: UploadStateInfo = row.state): UploadInfo {
  return {
    id: row.id,
    modelId: row.model_id,
    type: row.type,
    fileName: row.file_name,
    bytes: row.bytes,
    state,
    progress: row.progress,
    imageId: row.image_id,
    error: row.error,
    warning: row.warning,
    width: row.width,
    height: row.height,
    attempts: row.attempts,
    createdAt: row.created_at,
  };
}
