// Training: start it (GET /models/{id}/train, with 400 and 429 explained), then watch the model's
// status on a wall-clock schedule stored with the model (every 5 minutes, as the spec advises;
// slower once it takes longer than usual), until ready or failed. One notification at the end.
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import type { TrainingInfo, TrainingStateInfo } from '../../contract/ipc/training.ts';
import { UPLOAD_RULES } from '../../contract/rules/index.ts';
import { POLL_INTERVALS_MS } from '../../contract/service.ts';
import { spokenElapsed, spokenEvery, spokenRange, TRAINING_USUAL_MS } from '../../contract/training-time.ts';
import type { Notifier } from '../host/notifier.ts';
import { modelName } from '../../contract/names.ts';
import { classifyFailure, errorInfoOf } from '../api/backoff.ts';
import type { EngineTime } from '../host/time.ts';
import { checkModel, type JobsService } from './service-port.ts';
import type { ModelRow, ModelsRepo, TrainState } from '../db/repos/models-repo.ts';
import type { LoopWork } from './wall-clock-loop.ts';

/** The watcher's schedule and what it tells the user: the one place both are kept. */
export interface TrainingOptions {
  intervalMs: number;
  /** After this long, "taking longer than usual": still checked, less often. */
  slowAfterMs: number;
  slowIntervalMs: number;
  /** How long a training usually takes on this account's service. */
  usualMs: { min: number; max: number };
}

export const DEFAULT_TRAINING: TrainingOptions = {
  intervalMs: POLL_INTERVALS_MS.training,
  slowAfterMs: POLL_INTERVALS_MS.trainingGiveUpAfter,
  slowIntervalMs: 15 * 60_000,
  usualMs: { ...TRAINING_USUAL_MS },
};

/**
 * The service's schedule on a clock `scale` times faster (the demo's emulator): a training lasts
 * 1/scale as long, so it is checked, called slow and expected 1/scale as soon.
 */
export function scaledTraining(scale: number, base: TrainingOptions = DEFAULT_TRAINING): TrainingOptions {
  const scaled = (ms: number): number => Math.round(ms / scale);
  return {
    intervalMs: scaled(base.intervalMs),
    slowAfterMs: scaled(base.slowAfterMs),
    slowIntervalMs: scaled(base.slowIntervalMs),
    usualMs: { min: scaled(base.usualMs.min), max: scaled(base.usualMs.max) },
  };
}

export interface TrainingWatcherDeps {
  store: ModelsRepo;
  service: JobsService;
  time: EngineTime;
  /** Already gated by the user's Notifications setting (core.ts `gateNotifier`): every finish is told to it. */
  notifier: Notifier;
  changed(info: TrainingInfo): void;
  /** Training photos the local cache knows of (used when the service cannot be asked). */
  localInputCount(modelId: string): number;
  /** The engine's current stop signal. */
  signal?: () => AbortSignal;
  options: TrainingOptions;
}

const FAILED_STATUS = /fail|error|cancel|abort|reject|deleted/i;

/** A model as a notification names it (its label or name in words, never its `mdl_` id). */
const named = (id: string, row: { label: string | null; model_type: string } | undefined): string =>
  `“${modelName(id, { label: row?.label, modelType: row?.model_type })}”`;

export class TrainingWatcher implements LoopWork {
  readonly #deps: TrainingWatcherDeps;

  constructor(deps: TrainingWatcherDeps) {
    this.#deps = deps;
  }

  async start(modelId: string): Promise<TrainingInfo> {
    const { store, service, time, options } = this.#deps;
    const current = store.get(modelId);
    if (current && (current.train_state === 'training' || current.train_state === 'slow')) return this.status(modelId);
    try {
      await service.trainModel(modelId);
    } catch (error) {
      throw await this.#explainStartFailure(modelId, errorInfoOf(error));
    }
    const now = time.now();
    store.ensure(modelId, now);
    store.setTraining(modelId, {
      trainState: 'training',
      startedAt: now,
      lastCheckedAt: null,
      nextCheckAt: now + options.intervalMs,
      error: null,
      notifiedAt: null,
    });
    return this.#emit(modelId);
  }

  status(modelId: string): TrainingInfo {
    return this.#info(this.#deps.store.get(modelId) ?? null, modelId);
  }

  /** Trainings running now and those that ended since `since` (epoch ms), newest first. */
  list(since: number): TrainingInfo[] {
    return this.#deps.store.trainings(since).map((row) => this.#info(row, row.id));
  }

  nextDueAt(): number | null {
    return this.#deps.store.nextTrainingCheckAt();
  }

  async run(): Promise<{ requests: number; failure: ErrorInfo | null }> {
    const { store, time } = this.#deps;
    let requests = 0;
    for (const row of store.watchedTraining()) {
      if ((row.train_next_check_at ?? 0) > time.now()) continue;
      requests += 1;
      const failure = await this.#check(row);
      if (failure) return { requests, failure };
    }
    return { requests, failure: null };
  }

  async #check(row: ModelRow): Promise<ErrorInfo | null> {
    const { store, service, time, options } = this.#deps;
    let status: string;
    try {
      status = checkModel(await service.getModel(row.id, this.#deps.signal?.()), row.id).status;
    } catch (error) {
      const info = errorInfoOf(error);
      if (classifyFailure(info) !== 'not_found') return info;
      this.#finish(row.id, 'failed', 'The model no longer exists on the service.', null);
      return null;
    }
    const now = time.now();
    const lower = status.trim().toLowerCase();
    if (lower === 'ready') {
      this.#finish(row.id, 'ready', null, status);
    } else if (FAILED_STATUS.test(lower)) {
      this.#finish(row.id, 'failed', `The service reports the model as "${status}".`, status);
    } else {
      const started = row.training_started_at ?? now;
      const slow = now - started >= options.slowAfterMs;
      const state: TrainState = slow ? 'slow' : 'training';
      store.setTraining(row.id, {
        status,
        trainState: state,
        lastCheckedAt: now,
        nextCheckAt: now + (slow ? options.slowIntervalMs : options.intervalMs),
      });
      this.#emit(row.id);
    }
    return null;
  }

  #finish(modelId: string, state: 'ready' | 'failed', error: string | null, status: string | null): void {
    const { store, time, notifier } = this.#deps;
    const now = time.now();
    const before = store.get(modelId);
    store.setTraining(modelId, {
      ...(status !== null ? { status } : {}),
      trainState: state,
      lastCheckedAt: now,
      nextCheckAt: null,
      error,
      notifiedAt: now,
    });
    if (before?.train_notified_at === null) {
      notifier.notify(
        state === 'ready'
          ? { title: 'Model ready', body: `${named(modelId, before)} is trained: it can generate images now.` }
          : {
              title: 'Training failed',
              body: `${named(modelId, before)}: ${error ?? 'the service could not train it.'}`,
            },
      );
    }
    this.#emit(modelId);
  }

  async #explainStartFailure(modelId: string, info: ErrorInfo): Promise<AppError> {
    if (info.code === 'rate_limited' || info.httpStatus === 429) {
      return new AppError({
        ...info,
        code: 'rate_limited',
        message: 'Too many trainings are running; try again in a few minutes.',
      });
    }
    if (info.httpStatus === 400 || info.code === 'validation') {
      const count = await this.#inputCount(modelId);
      const { trainingMin, trainingMax } = UPLOAD_RULES;
      const has = count === null ? '' : `; it has ${count}`;
      return new AppError({
        ...info,
        code: 'validation',
        field: 'modelId',
        message:
          count === null || count < trainingMin || count > trainingMax
            ? `This model needs ${trainingMin}–${trainingMax} training photos${has}.`
            : `The service refused to train this model: ${info.message}`,
      });
    }
    return new AppError(info);
  }

  async #inputCount(modelId: string): Promise<number | null> {
    try {
      return await this.#deps.service.countModelImages(modelId, 'modelInput');
    } catch {
      return this.#deps.localInputCount(modelId);
    }
  }

  #emit(modelId: string): TrainingInfo {
    const info = this.status(modelId);
    this.#deps.changed(info);
    return info;
  }

  #info(row: ModelRow | null, modelId: string): TrainingInfo {
    const { time, options } = this.#deps;
    const state: TrainingStateInfo =
      row?.train_state === 'training' ||
      row?.train_state === 'slow' ||
      row?.train_state === 'ready' ||
      row?.train_state === 'failed'
        ? row.train_state
        : 'idle';
    const startedAt = row?.training_started_at ?? null;
    const end = state === 'ready' || state === 'failed' ? (row?.last_checked_at ?? time.now()) : time.now();
    const elapsedMs = startedAt === null || state === 'idle' ? null : Math.max(0, end - startedAt);
    const usual = spokenRange(options.usualMs);
    const elapsed = spokenElapsed(elapsedMs ?? 0, options.usualMs);
    const message = {
      idle: 'Not training.',
      training: `Training for ${elapsed}; it usually takes ${usual}.`,
      slow: `Taking longer than usual (${elapsed}; usually ${usual}). Still checking ${spokenEvery(options.slowIntervalMs)}.`,
      ready: `Ready: trained in about ${elapsed}.`,
      failed: `Training failed: ${row?.train_error ?? 'the service gave no reason.'}`,
    }[state];
    return {
      modelId,
      modelLabel: row?.label ?? null,
      state,
      serviceStatus: row?.status ? row.status : null,
      startedAt,
      elapsedMs,
      usualMs: { ...options.usualMs },
      slowAfterMs: options.slowAfterMs,
      checkEveryMs: state === 'slow' ? options.slowIntervalMs : options.intervalMs,
      lastCheckedAt: row?.last_checked_at ?? null,
      nextCheckAt: state === 'training' || state === 'slow' ? (row?.train_next_check_at ?? null) : null,
      message,
      error: row?.train_error ?? null,
    };
  }
}
