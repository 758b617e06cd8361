// The upload queue of one account: checked files wait as rows (bytes sent by the renderer are
// staged on disk), a few upload at once with progress events, and each ends uploaded or failed
// with a reason. An upload cut off by a crash is never repeated on its own (it may have landed):
// it is shown as failed with a retry action.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { AppError } from '../../contract/errors.ts';
import type { UploadInfo, UploadsAddResultInfo } from '../../contract/ipc/uploads.ts';
import type { UploadType } from '../../contract/service.ts';
import type { AccountDb } from '../db/account-db.ts';
import { DISK_FULL_MESSAGE, isDiskFull } from '../host/disk-full.ts';
import type { UploadRow, UploadsRepo } from '../db/repos/uploads-repo.ts';
import { assetFieldsFromImage } from '../api/server-records.ts';
import { uploadToInfo } from './upload-info.ts';
import { workClaimsOf, type WorkClaims } from '../db/work-claims.ts';
import { classifyFailure, errorInfoOf, retryDelay } from '../api/backoff.ts';
import type { ProgressAggregate } from '../host/progress.ts';
import type { EngineTime, TimerHandle } from '../host/time.ts';
import { checkFiles, sha256Of, trainingNotice, type FileSource } from './upload-checks.ts';
import type { UploadService } from './upload-service.ts';

/** How long queued uploads wait after the database could not be written (a full disk). */
const PUMP_RETRY_MS = 30_000;

export interface UploadQueueDeps {
  cache: AccountDb;
  service: UploadService;
  time: EngineTime;
  emit(info: UploadInfo): void;
  /** Where bytes sent by the renderer wait until uploaded (inside the account's folder). */
  stagingDir: string;
  concurrency?: number;
  /** Progress events at most this often per upload. */
  progressIntervalMs?: number;
  /** Automatic retries after a 429 (the service refused, so nothing landed). */
  maxRateLimitRetries?: number;
  logger?: { warn(message: string, error?: unknown): void };
  /** The app's taskbar/dock bar (shared with downloads). */
  progress?: ProgressAggregate;
  /** A 429: the service asked uploads to wait this long. */
  onRateLimited?(retryAfterMs: number): void;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
  removed: boolean;
}

export const INTERRUPTED_MESSAGE =
  'Interrupted when Atelier closed: the image may or may not have reached the service. Retry to upload it again.';

export class UploadQueue {
  readonly #deps: UploadQueueDeps;
  readonly #store: UploadsRepo;
  readonly #claims: WorkClaims;
  readonly #running = new Map<number, Running>();
  /** Rows waiting out a Retry-After: id → not before. */
  readonly #notBefore = new Map<number, number>();
  #timer: TimerHandle | null = null;
  #stopped = true;

  constructor(deps: UploadQueueDeps) {
    this.#deps = deps;
    this.#store = deps.cache.uploads;
    this.#claims = workClaimsOf(deps.cache.sqlite);
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const now = this.#deps.time.now();
    // Only uploads whose process is gone: another Atelier process may be sending the rest now.
    for (const row of this.#store.inState('uploading')) {
      if (!this.#claims.claim('uploads', row.id)) continue;
      this.#emit(this.#store.update(row.id, { state: 'failed', error: INTERRUPTED_MESSAGE }, now));
      this.#claims.release('uploads', row.id);
    }
    this.#pump();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) this.#deps.time.clearTimer(this.#timer);
    this.#timer = null;
    const running = [...this.#running.values()];
    running.forEach((r) => r.controller.abort(new AppError({ code: 'internal', message: 'Uploads stopped.' })));
    await Promise.allSettled(running.map((r) => r.done));
  }

  /** Resolves when nothing is uploading (tests). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()].map((r) => r.done));
  }

  list(modelId?: string): UploadInfo[] {
    return this.#store.list(modelId).map((row) => this.#info(row));
  }

  async add(request: { modelID: string; type: UploadType; files: FileSource[] }): Promise<UploadsAddResultInfo> {
    const { modelID, type, files } = request;
    const existing = await this.#existingCount(modelID, type);
    const pending = this.#store.pendingCount(modelID, type);
    const checked = await checkFiles(files, {
      type,
      countOfType: existing + pending,
      knownHashes: this.#store.knownHashes(modelID, type),
    });
    const accepted: UploadInfo[] = [];
    for (const file of checked.accepted) {
      const sourcePath = await this.#stage(file.sha256, file.format, file.bytes);
      const row = this.#store.insert({
        modelId: modelID,
        type,
        sourcePath,
        fileName: file.fileName,
        bytes: file.bytes.byteLength,
        sha256: file.sha256,
        width: file.width,
        height: file.height,
        warning: file.warning,
        now: this.#deps.time.now(),
      });
      accepted.push(this.#emit(row));
    }
    this.#pump();
    const notices = type === 'modelInput' ? [trainingNotice(existing + pending + accepted.length)] : [];
    return { accepted, refused: checked.refused, notices };
  }

  retry(id: number): UploadInfo {
    const row = this.#mustGet(id);
    if (row.state !== 'failed' && row.state !== 'cancelled') {
      throw new AppError({ code: 'conflict', message: 'Only a failed upload can be retried.', field: 'id' });
    }
    this.#notBefore.delete(id);
    const info = this.#emit(
      this.#store.update(id, { state: 'queued', error: null, progress: 0 }, this.#deps.time.now()),
    );
    this.#pump();
    return info;
  }

  /** Cancels a queued or running upload, or forgets a finished one (its image stays on the service). */
  async remove(id: number): Promise<void> {
    const row = this.#mustGet(id);
    const running = this.#running.get(id);
    if (running) {
      running.removed = true;
      running.controller.abort(new AppError({ code: 'internal', message: 'Upload removed.' }));
      await running.done.catch(() => {});
    }
    const last = this.#store.get(id) ?? row;
    this.#store.delete(id);
    this.#notBefore.delete(id);
    await this.#unstage(last.source_path);
    this.#deps.emit(uploadToInfo(last, 'removed'));
    this.#pump();
  }

  #mustGet(id: number): UploadRow {
    const row = this.#store.get(id);
    if (!row) throw new AppError({ code: 'not_found', message: 'That upload is not in the list.', field: 'id' });
    return row;
  }

  async #existingCount(modelId: string, type: UploadType): Promise<number> {
    try {
      return await this.#deps.service.countModelImages(modelId, type);
    } catch (error) {
      // Offline or refused: count what this app knows; the service still enforces its limit.
      this.#deps.logger?.warn('Counting the model’s images failed; using the local count', error);
      return this.#deps.cache.models.uploadedCounts().get(modelId)?.[type] ?? 0;
    }
  }

  async #stage(sha256: string, format: string, bytes: Uint8Array): Promise<string> {
    await mkdir(this.#deps.stagingDir, { recursive: true });
    const target = join(this.#deps.stagingDir, `${sha256}.${format}`);
    const temp = `${target}.${process.pid}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, target);
    return target;
  }

  #isStaged(path: string): boolean {
    return resolve(path).startsWith(resolve(this.#deps.stagingDir) + sep);
  }

  async #unstage(path: string): Promise<void> {
    if (!this.#isStaged(path)) return; // a file this queue did not write: never touched
    // The same bytes may wait in another row (same content, another model): keep them for it.
    const stillUsed = this.#store.list().some((row) => row.source_path === path && row.state !== 'succeeded');
    if (!stillUsed) await rm(path, { force: true });
  }

  #info(row: UploadRow): UploadInfo {
    return uploadToInfo(row);
  }

  #emit(row: UploadRow): UploadInfo {
    const info = this.#info(row);
    this.#deps.emit(info);
    return info;
  }

  /**
   * Called from timers and from the end of each upload, where a throw would end the process: a
   * database that cannot be written (a full disk) or read waits and tries again.
   */
  #pump(): void {
    try {
      this.#pumpNow();
    } catch (error) {
      this.#deps.logger?.warn(
        isDiskFull(error) ? `Uploads wait: ${DISK_FULL_MESSAGE}` : 'Could not start the queued uploads',
        error,
      );
      this.#wakeIn(PUMP_RETRY_MS);
    }
  }

  #wakeIn(ms: number): void {
    if (this.#stopped || this.#timer !== null) return;
    this.#timer = this.#deps.time.setTimer(() => {
      this.#timer = null;
      this.#pump();
    }, ms);
  }

  #pumpNow(): void {
    if (this.#stopped) return;
    const limit = this.#deps.concurrency ?? 2;
    const now = this.#deps.time.now();
    let wakeAt: number | null = null;
    for (const row of this.#store.inState('queued')) {
      if (this.#running.size >= limit) break;
      if (this.#running.has(row.id)) continue;
      const notBefore = this.#notBefore.get(row.id) ?? 0;
      if (notBefore > now) {
        wakeAt = wakeAt === null ? notBefore : Math.min(wakeAt, notBefore);
        continue;
      }
      if (!this.#claims.claim('uploads', row.id)) continue; // another process is sending it
      this.#notBefore.delete(row.id);
      this.#launch(row);
    }
    if (wakeAt !== null) this.#wakeIn(wakeAt - now);
  }

  #launch(row: UploadRow): void {
    const controller = new AbortController();
    const entry: Running = { controller, removed: false, done: Promise.resolve() };
    this.#running.set(row.id, entry);
    entry.done = this.#upload(row, entry)
      .catch((error: unknown) => this.#deps.logger?.warn('An upload failed unexpectedly', error))
      .finally(() => {
        this.#running.delete(row.id);
        this.#deps.progress?.finish(`upload:${row.id}`);
        try {
          this.#claims.release('uploads', row.id);
        } catch (error) {
          // Not written (a full disk): the claim lapses with this process's heartbeat.
          this.#deps.logger?.warn('Could not release an upload claim', error);
        }
        this.#pump();
      });
  }

  async #upload(row: UploadRow, entry: Running): Promise<void> {
    const { time, service, cache } = this.#deps;
    const attempts = row.attempts + 1;
    let current = this.#store.update(row.id, { state: 'uploading', progress: 0, error: null, attempts }, time.now());
    this.#emit(current);
    let bytes: Uint8Array;
    try {
      // Only bytes staged here are sent: a row from an older version naming another file is not read.
      if (!this.#isStaged(row.source_path)) throw new Error('not staged');
      bytes = await readFile(row.source_path);
    } catch {
      this.#emit(
        this.#store.update(
          row.id,
          { state: 'failed', error: 'The file is no longer where it was when added; add it again.' },
          time.now(),
        ),
      );
      return;
    }
    if (sha256Of(bytes) !== row.sha256) {
      this.#emit(
        this.#store.update(
          row.id,
          { state: 'failed', error: 'The file changed since it was added; add it again.' },
          time.now(),
        ),
      );
      return;
    }
    const interval = this.#deps.progressIntervalMs ?? 250;
    let lastEmit = 0;
    try {
      const image = await service.uploadImage({
        modelID: row.model_id,
        type: row.type,
        file: { name: row.file_name, bytes },
        signal: entry.controller.signal,
        onProgress: ({ percent }) => {
          this.#deps.progress?.update(`upload:${row.id}`, percent * bytes.length, bytes.length);
          const at = time.now();
          if (at - lastEmit < interval && percent < 1) return;
          lastEmit = at;
          this.#deps.emit({ ...uploadToInfo(current), progress: Math.min(0.99, Math.max(0, percent)) });
        },
      });
      const now = time.now();
      cache.transaction(() => {
        const fields = assetFieldsFromImage({
          ...image,
          modelID: image.modelID || row.model_id,
          type: image.type || row.type,
        });
        cache.assets.upsertFromServer(fields, now);
        const asset = cache.assets.get('image', image.id);
        if (asset)
          cache.assets.setLocalFile(asset.seq, {
            fileState: asset.file_state,
            sha256: row.sha256,
            width: row.width,
            height: row.height,
          });
        current = this.#store.update(row.id, { state: 'succeeded', progress: 1, imageId: image.id, error: null }, now);
      });
      this.#emit(current);
      await this.#unstage(row.source_path);
    } catch (error) {
      if (entry.removed || this.#stopped) return; // removed: the row is going away; stopped: start() explains it next time
      const info = errorInfoOf(error);
      const now = time.now();
      if (classifyFailure(info) === 'rate_limited' && attempts <= (this.#deps.maxRateLimitRetries ?? 3)) {
        // A 429 means the service took nothing: waiting and sending again cannot duplicate.
        const delay = retryDelay(info, attempts, time.random);
        this.#notBefore.set(row.id, now + delay);
        this.#deps.onRateLimited?.(delay);
        this.#emit(
          this.#store.update(row.id, { state: 'queued', progress: 0, error: `Waiting: ${info.message}` }, now),
        );
        return;
      }
      this.#emit(this.#store.update(row.id, { state: 'failed', progress: 0, error: info.message }, now));
    }
  }
}
