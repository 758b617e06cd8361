// The background jobs engine of one account: outbox, reconciliation, the batched poll loop,
// outputs, notifications and the training watcher, on one injected clock. Created when an
// account opens, stopped before its database closes.
import { AppError } from '../../contract/errors.ts';
import type { CostEstimateInfo, JobHistoryPageInfo, JobInfo, JobKindInfo } from '../../contract/ipc/jobs.ts';
import { COST_SCAN_LIMIT, estimateCost } from './cost-estimate.ts';
import { CreditsFiller } from './credits-filler.ts';
import type { TrainingInfo } from '../../contract/ipc/training.ts';
import { isJobSuccess, type Job, type JobSummary } from '../../contract/service.ts';
import {
  isReadyStatus,
  isTrainedModelId,
  notReadyProblem,
  unknownModelProblem,
  type FieldProblem,
} from '../../contract/rules/index.ts';
import { isRecord } from '../../contract/rules/common.ts';
import type { Cache } from '../db/cache.ts';
import { modelFields } from '../db/server-records.ts';
import { parseTime } from '../db/values.ts';
import type { EventBus } from '../events.ts';
import { silentNotifier, type Notifier } from '../host/notifier.ts';
import { steadyPowerSignals, type PowerSignals } from '../host/power-signals.ts';
import { classifyFailure, errorInfoOf } from '../api/backoff.ts';
import { systemTime, type EngineTime } from './engine-time.ts';
import { DEFAULT_FINISH_NOTIFIER, FinishNotifier, type FinishNotifierOptions } from './finish-notifier.ts';
import { toJobInfo } from './job-info.ts';
import type { JobRow } from '../db/repos/jobs-repo.ts';
import { Outbox } from './outbox.ts';
import { recordOutputs, type OutputAsset } from './outputs.ts';
import { DEFAULT_POLL_ROUND, pollRound, type PollRoundOptions, type RoundReport } from './poll-round.ts';
import { RECONCILE_WINDOW, reconcileSubmissions, UNKNOWN_MESSAGE } from './reconcile.ts';
import { JobHistory } from './job-history.ts';
import { checkModel, type JobsService } from './service-port.ts';
import { DEFAULT_TRAINING, TrainingWatcher, type TrainingOptions } from './training-watcher.ts';
import {
  DEFAULT_LOOP_OPTIONS,
  WallClockLoop,
  type GateStore,
  type LoopOptions,
  type LoopWork,
} from './wall-clock-loop.ts';

export interface EnginePreferences {
  /** The user paused checking jobs (tray/settings). */
  pollingPaused(): boolean;
  /** Returns the unsubscribe function. */
  onPollingPausedChange?(listener: (paused: boolean) => void): () => void;
}

export interface EngineLogger {
  warn(message: string, error?: unknown): void;
}

export interface JobsEngineOptions {
  loop: LoopOptions;
  round: PollRoundOptions;
  notify: FinishNotifierOptions;
  training: TrainingOptions;
  /** A lost POST answer is reconciled this long after (the service may still be writing the job). */
  reconcileDelayMs: number;
  /** jobs:list shows finished jobs this far back (live and unknown ones always). */
  recentMs: number;
}

export interface JobsEngineDeps {
  cache: Cache;
  service: JobsService;
  events: EventBus;
  time?: EngineTime;
  /** Gated by the user's Notifications setting in core.ts. */
  notifier?: Notifier;
  power?: PowerSignals;
  preferences?: EnginePreferences;
  /** New outputs, for the library's download queue (auto-download is decided there). */
  onOutputs?: (assets: OutputAsset[]) => void;
  logger?: EngineLogger;
  options?: { [K in keyof JobsEngineOptions]?: Partial<JobsEngineOptions[K]> | JobsEngineOptions[K] };
  /** Every poll round's report (metrics, tests). */
  onRound?: (report: RoundReport) => void;
}

export interface JobsEngine {
  start(): void;
  stop(): Promise<void>;
  submit(kind: JobKindInfo, body: unknown): Promise<JobInfo>;
  resubmit(localId: number): Promise<JobInfo>;
  list(limit?: number): JobInfo[];
  get(localId: number): JobInfo;
  history(query: { start: string; end: string; pageToken?: string | undefined }): Promise<JobHistoryPageInfo>;
  estimate(kind: 'image' | 'video', body: unknown): Promise<CostEstimateInfo>;
  startTraining(modelId: string): Promise<TrainingInfo>;
  trainingStatus(modelId: string): TrainingInfo;
  /** Runs whatever is due now (jobs and training); resolves when done. */
  pollNow(): Promise<void>;
  /** The user's "Check now": clears any wait (Retry-After, backoff) of jobs and training, checks what is due. */
  checkNow(): Promise<void>;
  /** Resolves when no poll pass is running. */
  settled(): Promise<void>;
  /** The jobs loop's "no request before" time (0 = none): Retry-After and backoff. */
  readonly notBefore: number;
}

const GATE_KEY = { jobs: 'engine.jobs.notBefore', training: 'engine.training.notBefore' } as const;

function gateStore(cache: Cache, key: string, time: EngineTime): GateStore {
  return {
    load: () => {
      const value = cache.syncState.get<number>(key)?.value;
      return typeof value === 'number' ? value : 0;
    },
    save: (until) => cache.syncState.set(key, until, time.now()),
  };
}

export function createJobsEngine(deps: JobsEngineDeps): JobsEngine {
  const { cache, service, events } = deps;
  const time = deps.time ?? systemTime;
  const power = deps.power ?? steadyPowerSignals;
  const notifier = deps.notifier ?? silentNotifier;
  const logger: EngineLogger = deps.logger ?? { warn: () => {} };
  const opt = deps.options ?? {};
  const options: JobsEngineOptions = {
    loop: { ...DEFAULT_LOOP_OPTIONS, ...opt.loop },
    round: { ...DEFAULT_POLL_ROUND, ...opt.round },
    notify: { ...DEFAULT_FINISH_NOTIFIER, ...opt.notify },
    training: { ...DEFAULT_TRAINING, ...opt.training },
    reconcileDelayMs: 5_000,
    recentMs: 7 * 24 * 60 * 60_000,
    ...(opt.reconcileDelayMs !== undefined ? { reconcileDelayMs: opt.reconcileDelayMs as number } : {}),
    ...(opt.recentMs !== undefined ? { recentMs: opt.recentMs as number } : {}),
  };
  const store = cache.jobs;
  const history = new JobHistory(service, store, time);
  // Aborted by stop(): an account switch or quit never waits on a background request.
  let aborter = new AbortController();

  let lastCounts = '';
  const emitCounts = (): void => {
    const counts = store.counts();
    const payload = { queued: counts.submitting + counts.queued, running: counts.running };
    const text = JSON.stringify(payload);
    if (text === lastCounts) return;
    lastCounts = text;
    events.emit('queue:counts', payload);
  };
  const changed = (row: JobRow): void => {
    events.emit('jobs:changed', toJobInfo(row));
    emitCounts();
  };

  const finishNotifier = new FinishNotifier({
    store,
    notifier,
    time,
    enabled: () => true,
    options: options.notify,
    onError: (error) => logger.warn('Marking finished jobs as announced failed; trying again later', error),
  });

  const finish = (row: JobRow, job: Job, summary: JobSummary | null): void => {
    const now = time.now();
    let assets: OutputAsset[] = [];
    let upscaledSource: string | null = null;
    store.transaction(() => {
      const serviceCreatedAt = parseTime(job.createdAt) ?? row.service_created_at;
      const common = {
        serviceStatus: job.status,
        ...(typeof summary?.credits === 'number' ? { credits: summary.credits } : {}),
        finishedAt: now,
        lastPolledAt: now,
        nextPollAt: null,
        attempts: 0,
        serviceCreatedAt,
      };
      if (isJobSuccess(job.status)) {
        const recorded = recordOutputs(cache, row, job, now);
        assets = recorded.assets;
        upscaledSource = recorded.upscaledSource;
        store.update(row.local_id, { ...common, state: 'succeeded', error: null, outputs: recorded.infos }, now);
      } else {
        const text = [job.error, summary?.errorMessage].find((t) => typeof t === 'string' && t.trim() !== '');
        const error = text ?? `The service ended this job with status "${job.status}".`;
        store.update(row.local_id, { ...common, state: 'failed', error }, now);
      }
    });
    changed(store.mustGet(row.local_id));
    if (upscaledSource)
      events.emit('assets:changed', {
        reason: 'job',
        kinds: ['image'],
        assets: [{ kind: 'image', id: upscaledSource }],
      });
    finishNotifier.add(row.local_id);
    if (assets.length > 0 && deps.onOutputs) {
      try {
        deps.onOutputs(assets);
      } catch (error) {
        logger.warn('Handing new outputs to the library failed', error);
      }
    }
  };

  /**
   * Only a ready trained model can generate. A cached "ready" is trusted; anything else may be stale
   * (a training finished since, or this process never synced), so that one model is asked for first.
   * When the service cannot be asked, the request goes on and the service judges it.
   */
  const trainedModelRefusal = async (kind: JobKindInfo, body: unknown): Promise<FieldProblem | null> => {
    const modelID = isRecord(body) ? body['modelID'] : undefined;
    if (kind !== 'image' || !isTrainedModelId(modelID)) return null;
    const cached = cache.models.get(modelID);
    if (cached && isReadyStatus(cached.status)) return null;
    let status: string;
    try {
      const model = checkModel(await service.getModel(modelID, aborter.signal), modelID);
      cache.models.upsertFromServer(modelFields(model), time.now());
      status = model.status;
    } catch (error) {
      const info = errorInfoOf(error);
      if (classifyFailure(info) === 'not_found') return unknownModelProblem(modelID);
      return cached ? notReadyProblem(modelID, cached.status, cached.label ?? modelID) : null;
    }
    if (!cached || cached.status !== status) events.emit('models:changed', { reason: 'sync', ids: [modelID] });
    return notReadyProblem(modelID, status, cached?.label ?? modelID);
  };

  const credits = new CreditsFiller({
    cache,
    service,
    time,
    signal: () => aborter.signal,
    changed: (localId) => changed(store.mustGet(localId)),
  });

  let reconcileAt: number | null = null;
  const outbox: Outbox = new Outbox({
    store,
    service,
    time,
    modelOfImage: (imageId) => cache.assets.get('image', imageId)?.model_id ?? null,
    isOnline: () => power.isOnline(),
    changed,
    needsReconcile: () => {
      const at = time.now() + options.reconcileDelayMs;
      reconcileAt = reconcileAt === null ? at : Math.min(reconcileAt, at);
      jobsLoop.poke();
    },
    submitted: () => jobsLoop.poke(),
    modelRefusal: (kind, body) => trainedModelRefusal(kind, body),
  });

  const giveUpOnSubmissions = (rows: JobRow[]): number | null => {
    const now = time.now();
    let retry: number | null = null;
    for (const row of rows) {
      if (now >= row.created_at + RECONCILE_WINDOW.afterMs) {
        store.update(row.local_id, { state: 'unknown', error: UNKNOWN_MESSAGE, nextPollAt: null }, now);
        changed(store.mustGet(row.local_id));
      } else {
        retry = now + 60_000;
      }
    }
    return retry;
  };

  const jobsWork: LoopWork = {
    nextDueAt: () => {
      const next = store.nextPollAt();
      if (next === null) return reconcileAt;
      return reconcileAt === null ? next : Math.min(next, reconcileAt);
    },
    run: async () => {
      const release = finishNotifier.hold();
      let requests = 0;
      try {
        if (reconcileAt !== null && reconcileAt <= time.now()) {
          const rows = store.submitting().filter((row) => !outbox.isPosting(row.local_id));
          try {
            reconcileAt =
              rows.length === 0
                ? null
                : (
                    await reconcileSubmissions(rows, {
                      store,
                      service,
                      time,
                      signal: aborter.signal,
                      changed,
                      counted: () => void (requests += 1),
                    })
                  ).retryAt;
          } catch (error) {
            const info = errorInfoOf(error);
            const kind = classifyFailure(info);
            if (kind === 'transient' || kind === 'rate_limited' || kind === 'auth') return { requests, failure: info };
            // The listing refuses to answer this for good: say "unknown" for rows whose window
            // closed, check the rest again later, and go on polling the other jobs meanwhile.
            logger.warn('Checking interrupted submissions failed', error);
            reconcileAt = giveUpOnSubmissions(rows);
          }
        }
        const report = await pollRound({
          onError: (message, error) => logger.warn(message, error),
          store,
          service,
          time,
          signal: aborter.signal,
          options: options.round,
          changed,
          finish,
        });
        report.requests += requests;
        if (report.requests > 0) deps.onRound?.(report);
        return { requests: report.requests, failure: report.failure };
      } finally {
        release();
        emitCounts();
      }
    },
  };

  const onLoopError = (error: unknown) => logger.warn('A background check failed unexpectedly', error);
  const jobsLoop = new WallClockLoop({
    work: jobsWork,
    time,
    options: options.loop,
    gate: gateStore(cache, GATE_KEY.jobs, time),
    onError: onLoopError,
    onFailure: (info, delay, failures) => {
      if (classifyFailure(info) === 'rate_limited')
        events.emit('service:rate-limited', { retryAfterMs: delay, source: 'jobs' });
      if (failures === 1 || failures % 10 === 0)
        logger.warn(`Checking jobs failed (${info.code}); next try in ${Math.round(delay / 1000)} s`);
    },
  });

  const training = new TrainingWatcher({
    store: cache.models,
    service,
    time,
    notifier,
    notificationsEnabled: () => true,
    // Every view learns of a model's new state from models:changed, training progress included.
    changed: (info) => {
      events.emit('training:changed', info);
      events.emit('models:changed', { reason: 'training', ids: [info.modelId] });
    },
    localInputCount: (modelId) => cache.models.uploadedCounts().get(modelId)?.modelInput ?? 0,
    signal: () => aborter.signal,
    options: options.training,
  });
  const trainingLoop = new WallClockLoop({
    work: training,
    time,
    options: options.loop,
    gate: gateStore(cache, GATE_KEY.training, time),
    onError: onLoopError,
    onFailure: (info, delay) => {
      if (classifyFailure(info) === 'rate_limited')
        events.emit('service:rate-limited', { retryAfterMs: delay, source: 'training' });
    },
  });
  const loops = [jobsLoop, trainingLoop];

  const unsubscribe: (() => void)[] = [];
  let started = false;

  return {
    get notBefore() {
      return jobsLoop.notBefore;
    },
    start() {
      if (started) return;
      started = true;
      aborter = new AbortController();
      finishNotifier.resumePending();
      if (store.submitting().length > 0) reconcileAt = time.now();
      if (!power.isOnline()) loops.forEach((loop) => loop.pause('offline'));
      if (deps.preferences?.pollingPaused()) loops.forEach((loop) => loop.pause('setting'));
      unsubscribe.push(
        power.onSuspend(() => loops.forEach((loop) => loop.pause('suspended'))),
        power.onResume(() => loops.forEach((loop) => loop.resume('suspended'))),
        power.onOnlineChange((online) =>
          loops.forEach((loop) => (online ? loop.resume('offline') : loop.pause('offline'))),
        ),
      );
      const onPaused = deps.preferences?.onPollingPausedChange?.((paused) =>
        loops.forEach((loop) => (paused ? loop.pause('setting') : loop.resume('setting'))),
      );
      if (onPaused) unsubscribe.push(onPaused);
      loops.forEach((loop) => loop.start());
      emitCounts();
    },
    async stop() {
      unsubscribe.splice(0).forEach((off) => off());
      const stopping = Promise.all(loops.map((loop) => loop.stop()));
      aborter.abort(new AppError({ code: 'internal', message: 'The jobs engine stopped.' }));
      await stopping;
      history.close();
      finishNotifier.flush();
      started = false;
    },
    async submit(kind, body) {
      return toJobInfo(await outbox.submit(kind, body));
    },
    async resubmit(localId) {
      return toJobInfo(await outbox.resubmit(localId));
    },
    list(limit = 200) {
      return store.recent(time.now() - options.recentMs, limit).map(toJobInfo);
    },
    get(localId) {
      const row = store.get(localId);
      if (!row)
        throw new AppError({ code: 'not_found', message: 'That job is not in this library.', field: 'localId' });
      return toJobInfo(row);
    },
    history: (query) => history.page(query),
    estimate: async (kind, body) => {
      const modelID = isRecord(body) ? body['modelID'] : undefined;
      if (typeof modelID !== 'string') return { credits: null, basedOn: 0, low: null, high: null };
      await credits.fill(kind, modelID);
      return estimateCost(kind, body, cache.jobs.costHistory(kind, modelID, COST_SCAN_LIMIT));
    },
    async startTraining(modelId) {
      const info = await training.start(modelId);
      trainingLoop.poke();
      return info;
    },
    trainingStatus: (modelId) => training.status(modelId),
    async pollNow() {
      await Promise.all(loops.map((loop) => loop.runNow()));
    },
    async checkNow() {
      await Promise.all(loops.map((loop) => loop.checkNow()));
    },
    async settled() {
      await Promise.all(loops.map((loop) => loop.settled()));
    },
  };
}
