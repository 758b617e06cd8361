// The background jobs engine of one account, assembled from its named parts: the outbox (where a
// generation request enters the core), the jobs scheduler (reconciliation + batched poll rounds),
// the job finisher, the finish notifier and the training watcher, each loop on one injected clock.
// Created when an account opens, stopped before its database closes.
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import type { CostEstimateInfo, JobHistoryPageInfo, JobInfo, SubmitOriginInfo } from '../../contract/ipc/jobs.ts';
import type { TrainingInfo } from '../../contract/ipc/training.ts';
import type { GenerationRequest } from '../../contract/rules/index.ts';
import { isRecord } from '../../contract/rules/common.ts';
import { classifyFailure } from '../api/backoff.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { EventBus } from '../events.ts';
import { silentNotifier, type Notifier } from '../host/notifier.ts';
import { steadyPowerSignals, type PowerSignals } from '../host/power-signals.ts';
import { BatchRunner, type BatchBudget } from './batch-runner.ts';
import { COST_SCAN_LIMIT, estimateCost, priceKey } from './cost-estimate.ts';
import { JobListGate } from '../api/job-list-gate.ts';
import { CreditsFiller } from './credits-filler.ts';
import { engineOptions, gateStore, type JobsEngineOverrides } from './engine-options.ts';
import { experimentOfBatch } from './experiment-info.ts';
import { systemTime, type EngineTime } from '../host/time.ts';
import { FinishNotifier } from './finish-notifier.ts';
import { jobEvents } from './job-events.ts';
import { jobFinisher } from './job-finisher.ts';
import { JobHistory } from './job-history.ts';
import { attributeJob, tieJob } from './attribution.ts';
import { jobInfoOf, jobInfosOf } from './job-info.ts';
import { JobsScheduler } from './jobs-scheduler.ts';
import { followConditions, type PollingPreference } from './loop-conditions.ts';
import { trainedModelRefusal } from './model-refusal.ts';
import { Outbox } from './outbox.ts';
import type { OutputAsset } from './outputs.ts';
import type { RoundReport } from './poll-round.ts';
import type { JobsService } from './service-port.ts';
import { TrainingWatcher } from './training-watcher.ts';
import { WallClockLoop, type LoopWork } from './wall-clock-loop.ts';

export type { JobsEngineOptions } from './engine-options.ts';
export type EnginePreferences = PollingPreference;

export interface EngineLogger {
  warn(message: string, error?: unknown): void;
}

export interface JobsEngineDeps {
  cache: AccountDb;
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
  options?: JobsEngineOverrides;
  /** Every poll round's report (metrics, tests). */
  onRound?: (report: RoundReport) => void;
  /** The account's one gate for GET /jobs, shared with the library sync (default: the engine's own). */
  listGate?: JobListGate;
  /** Asked before each batch item is sent (core/budgets); none: no cap. */
  budget?: BatchBudget;
  /** How many of a batch's requests may be unanswered at once (default BATCH_IN_FLIGHT). */
  batchInFlight?: number;
}

export interface JobsEngine {
  start(): void;
  stop(): Promise<void>;
  /** A generation request entering the core: checked once (rules, model readiness), recorded, sent. */
  submit(request: GenerationRequest & SubmitOriginInfo): Promise<JobInfo>;
  resubmit(localId: number): Promise<JobInfo>;
  /** The user's confirmed "This is it": the unattributed job `jobLocalId` is request `rowLocalId`'s. */
  attribute(jobLocalId: number, rowLocalId: number): JobInfo;
  /** Stops a request from being sent again on its own. */
  cancelResend(localId: number): JobInfo;
  list(limit?: number): JobInfo[];
  get(localId: number): JobInfo;
  history(query: { start: string; end: string; pageToken?: string | undefined }): Promise<JobHistoryPageInfo>;
  estimate(kind: 'image' | 'video', body: unknown): Promise<CostEstimateInfo>;
  /** The estimates of many requests (a batch's), reading each model's history once. */
  estimateMany(requests: readonly { kind: 'image' | 'video'; body: unknown }[]): Promise<CostEstimateInfo[]>;
  /** Batches: many requests sent through the outbox at a pace the service accepts. */
  readonly batches: BatchRunner;
  startTraining(modelId: string): Promise<TrainingInfo>;
  trainingStatus(modelId: string): TrainingInfo;
  /** Trainings running now and those that ended within the recent window, newest first. */
  trainings(): TrainingInfo[];
  /** Runs whatever is due now (jobs and training); resolves when done. */
  pollNow(): Promise<void>;
  /** The user's "Check now": clears any wait (Retry-After, backoff) of jobs and training, checks what is due. */
  checkNow(): Promise<void>;
  /** Resolves when no poll pass is running. */
  settled(): Promise<void>;
  /** The jobs loop's "no request before" time (0 = none): Retry-After and backoff. */
  readonly notBefore: number;
}

export function createJobsEngine(deps: JobsEngineDeps): JobsEngine {
  const { cache, service, events } = deps;
  const time = deps.time ?? systemTime;
  const power = deps.power ?? steadyPowerSignals;
  const notifier = deps.notifier ?? silentNotifier;
  const warn = deps.logger?.warn.bind(deps.logger) ?? (() => {});
  const options = engineOptions(deps.options);
  const store = cache.jobs;
  const listGate = deps.listGate ?? new JobListGate(time);
  const history = new JobHistory(service, store, time, listGate);
  // Aborted by stop(): an account switch or quit never waits on a background request.
  let aborter = new AbortController();
  const signal = () => aborter.signal;
  const said = jobEvents(store, events, () => cache.models.watchedTraining().length);
  // Every change of a job row is said, and tells its batch (if any) that a slot may be free.
  const jobChanged = (row: Parameters<typeof said.changed>[0]): void => {
    said.changed(row);
    batches.jobChanged(row);
  };

  const finishNotifier = new FinishNotifier({
    store,
    notifier,
    time,
    options: options.notify,
    onError: (error) => warn('Marking finished jobs as announced failed; trying again later', error),
    sourcePromptOf: (imageId) => cache.assets.get('image', imageId)?.prompt ?? null,
  });
  const finish = jobFinisher({
    cache,
    store,
    events,
    time,
    finishNotifier,
    changed: jobChanged,
    onOutputs: deps.onOutputs,
    warn,
  });
  const scheduler = new JobsScheduler({
    store,
    service,
    time,
    signal,
    round: options.round,
    listGate,
    finishNotifier,
    finish,
    changed: jobChanged,
    counts: said.counts,
    isPosting: (localId) => outbox.isPosting(localId),
    resend: (row) => outbox.resend(row),
    warn,
    onRound: deps.onRound,
  });
  const outbox = new Outbox({
    store,
    service,
    time,
    modelOfImage: (imageId) => cache.assets.get('image', imageId)?.model_id ?? null,
    isOnline: () => power.isOnline(),
    changed: jobChanged,
    needsReconcile: () => {
      scheduler.reconcileBy(time.now() + options.reconcileDelayMs);
      jobsLoop.poke();
    },
    submitted: () => jobsLoop.poke(),
    modelRefusal: trainedModelRefusal({ cache, service, events, time, signal }),
    takeOver: (unattributed, row) => void tieJob(attribution, unattributed, row),
  });
  const attribution = { cache, store, time, changed: jobChanged };
  const batches = new BatchRunner({
    store: cache.batches,
    time,
    submit: (request, link) => outbox.submit(request, link),
    // An experiment is a batch with a grid: each change of its batch is the experiment's too.
    changed: (info) => {
      events.emit('batches:changed', info);
      const experiment = experimentOfBatch(cache, info.id);
      if (experiment) events.emit('experiments:changed', experiment);
    },
    budget: deps.budget,
    maxInFlight: deps.batchInFlight,
    warn,
  });
  const credits = new CreditsFiller({
    cache,
    service,
    time,
    listGate,
    signal,
    changed: (localId) => jobChanged(store.mustGet(localId)),
  });

  /** A loop of background work: its "not before" stored, a 429 told to the status bar. */
  const serviceLoop = (
    source: 'jobs' | 'training',
    work: LoopWork,
    onFailure?: (info: ErrorInfo, delayMs: number, failures: number) => void,
  ) =>
    new WallClockLoop({
      work,
      time,
      options: options.loop,
      gate: gateStore(cache, source, time),
      onError: (error) => warn('A background check failed unexpectedly', error),
      onFailure: (info, delay, failures) => {
        if (classifyFailure(info) === 'rate_limited')
          events.emit('service:rate-limited', { retryAfterMs: delay, source });
        onFailure?.(info, delay, failures);
      },
    });
  const jobsLoop = serviceLoop('jobs', scheduler, (info, delay, failures) => {
    if (failures === 1 || failures % 10 === 0)
      warn(`Checking jobs failed (${info.code}); next try in ${Math.round(delay / 1000)} s`);
  });

  const training = new TrainingWatcher({
    store: cache.models,
    service,
    time,
    notifier,
    // Every view learns of a model's new state from models:changed, training progress included.
    changed: (info) => {
      events.emit('training:changed', info);
      events.emit('models:changed', { reason: 'training', ids: [info.modelId] });
      said.counts();
    },
    localInputCount: (modelId) => cache.models.uploadedCounts().get(modelId)?.modelInput ?? 0,
    signal,
    options: options.training,
  });
  const trainingLoop = serviceLoop('training', training);
  const loops = [jobsLoop, trainingLoop];
  const everyLoop = (act: (loop: WallClockLoop) => Promise<void>) => Promise.all(loops.map(act)).then(() => {});

  let stopFollowing: (() => void) | null = null;

  return {
    get notBefore() {
      return jobsLoop.notBefore;
    },
    start() {
      if (stopFollowing) return;
      aborter = new AbortController();
      finishNotifier.resumePending();
      if (store.submitting().length > 0) scheduler.reconcileBy(time.now());
      stopFollowing = followConditions(loops, power, deps.preferences);
      loops.forEach((loop) => loop.start());
      outbox.start();
      batches.start();
      said.counts();
    },
    async stop() {
      stopFollowing?.();
      outbox.stop();
      batches.stop();
      const stopping = everyLoop((loop) => loop.stop());
      aborter.abort(new AppError({ code: 'internal', message: 'The jobs engine stopped.' }));
      await stopping;
      history.close();
      finishNotifier.flush();
      stopFollowing = null;
    },
    submit: async (request) => jobInfoOf(store, await outbox.submit(request)),
    resubmit: async (localId) => jobInfoOf(store, await outbox.resubmit(localId)),
    attribute: (jobLocalId, rowLocalId) => jobInfoOf(store, attributeJob(attribution, jobLocalId, rowLocalId)),
    cancelResend: (localId) => jobInfoOf(store, outbox.cancelResend(localId)),
    list: (limit = 200) => jobInfosOf(store, store.recent(time.now() - options.recentMs, limit)),
    get(localId) {
      const row = store.get(localId);
      if (!row)
        throw new AppError({ code: 'not_found', message: 'That job is not in this library.', field: 'localId' });
      return jobInfoOf(store, row);
    },
    history: (query) => history.page(query),
    batches,
    estimateMany: async (requests) => {
      const byKey = new Map<string, CostEstimateInfo>();
      const histories = new Map<string, { request: string; credits: number }[]>();
      const out: CostEstimateInfo[] = [];
      for (const { kind, body } of requests) {
        const modelID = isRecord(body) ? body['modelID'] : undefined;
        if (typeof modelID !== 'string') {
          out.push({ credits: null, basedOn: 0, low: null, high: null });
          continue;
        }
        const model = `${kind}\u0000${modelID}`;
        let history = histories.get(model);
        if (!history) {
          await credits.fill(kind, modelID).catch((error: unknown) => warn('Reading job costs failed', error));
          history = cache.jobs.costHistory(kind, modelID, COST_SCAN_LIMIT);
          histories.set(model, history);
        }
        const key = `${kind}\u0000${priceKey(kind, body)}`;
        let estimate = byKey.get(key);
        if (!estimate) {
          estimate = estimateCost(kind, body, history);
          byKey.set(key, estimate);
        }
        out.push(estimate);
      }
      return out;
    },
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
    trainings: () => training.list(time.now() - options.recentMs),
    pollNow: () => everyLoop((loop) => loop.runNow()),
    checkNow: () => everyLoop((loop) => loop.checkNow()),
    settled: async () => {
      await Promise.all([everyLoop((loop) => loop.settled()), outbox.settled(), batches.settled()]);
    },
  };
}
