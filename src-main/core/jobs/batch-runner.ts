// Sends a batch's items through the outbox at a pace the service accepts, and survives restarts:
// - at most `maxInFlight` of a batch's requests unanswered at once (being sent, waiting for a
//   resend after a 429/503, or having their fate checked): a freed slot sends the next item;
// - while one of its requests waits for a resend (the outbox's one policy: the Retry-After, else
//   capped jittered backoff), the batch sends nothing new, so a busy service slows the whole batch;
// - an item is marked sent in the transaction that writes its jobs row (Outbox.submit's `link`),
//   and only a pending item can be: after a kill and restart the pending items are sent, the sent
//   ones are the outbox's (resent only when they certainly never arrived), nothing twice;
// - before each item the budget (if any) is asked about its estimated credits; a refusal pauses
//   the batch with the budget's reason (not for a batch the user chose to send over the cap:
//   `over_budget`, an experiment started with overBudget);
// - pause (pending → paused), resume, cancel the rest (pending and paused → cancelled).
import { rowLabel } from '../../contract/batch/batch-plan.ts';
import { AppError } from '../../contract/errors.ts';
import type { BatchDetailInfo, BatchInfo } from '../../contract/ipc/batches.ts';
import type { GenerationRequest } from '../../contract/rules/index.ts';
import type { BatchRow, BatchesRepo, NewBatchItem } from '../db/repos/batches-repo.ts';
import type { JobRow } from '../db/repos/jobs-repo.ts';
import type { EngineTime, TimerHandle } from '../host/time.ts';
import { batchDetailOf, batchInfoOf } from './batch-info.ts';

/** What the budgets (core/budgets) say about spending `credits` more now. */
export interface BatchBudget {
  check(credits: number): { ok: true } | { ok: false; reason: string };
}

/** How many of a batch's requests may be unanswered at once. */
export const BATCH_IN_FLIGHT = 4;
/** Offline, a batch looks again this much later (the outbox refuses new requests while offline). */
const OFFLINE_RETRY_MS = 10_000;

export interface BatchRunnerDeps {
  store: BatchesRepo;
  time: EngineTime;
  /** The outbox's submit: `link` runs in the transaction that writes the jobs row. */
  submit(request: GenerationRequest, link: (row: JobRow) => void): Promise<JobRow>;
  changed(info: BatchInfo): void;
  budget?: BatchBudget | undefined;
  maxInFlight?: number | undefined;
  warn(message: string, error?: unknown): void;
}

/** Thrown inside the outbox's transaction when the item is no longer pending: nothing is written. */
class ItemNotPending extends Error {}

const notFound = () => new AppError({ code: 'not_found', message: 'That batch is not in this library.', field: 'id' });

export class BatchRunner {
  readonly #deps: BatchRunnerDeps;
  readonly #max: number;
  #running = false;
  /** Per batch: items handed to submit() whose jobs row may not exist yet (position set). */
  readonly #starting = new Map<number, Set<number>>();
  readonly #timers = new Map<number, TimerHandle>();
  #work: Promise<void> = Promise.resolve();

  constructor(deps: BatchRunnerDeps) {
    this.#deps = deps;
    this.#max = Math.max(1, deps.maxInFlight ?? BATCH_IN_FLIGHT);
  }

  /** Resumes every running batch (a previous run's too). */
  start(): void {
    this.#running = true;
    for (const batch of this.#deps.store.inState('running')) this.#pump(batch.id);
  }

  stop(): void {
    this.#running = false;
    for (const timer of this.#timers.values()) this.#deps.time.clearTimer(timer);
    this.#timers.clear();
  }

  /** Resolves when no submission started by a batch is under way. */
  async settled(): Promise<void> {
    let seen: Promise<void> | null = null;
    while (seen !== this.#work) {
      seen = this.#work;
      await seen;
    }
  }

  create(name: string, items: readonly NewBatchItem[]): BatchDetailInfo {
    const batch = this.#deps.store.create(name, items, this.#deps.time.now());
    return this.started(batch.id);
  }

  /** A batch written by another step (an experiment saves its batch with itself): said, and sent. */
  started(id: number): BatchDetailInfo {
    this.#said(id);
    this.#pump(id);
    return batchDetailOf(this.#deps.store, this.#deps.store.mustGet(id));
  }

  list(limit = 100): BatchInfo[] {
    return this.#deps.store.list(limit).map((row) => batchInfoOf(this.#deps.store, row));
  }

  get(id: number): BatchDetailInfo {
    return batchDetailOf(this.#deps.store, this.#batch(id));
  }

  pause(id: number, reason = 'Paused by you.'): BatchInfo {
    const { store, time } = this.#deps;
    store.transaction(() => {
      const batch = this.#batch(id);
      if (batch.state !== 'running' && batch.state !== 'paused') throw this.#ended(batch);
      store.moveItems(id, ['pending'], 'paused');
      store.setState(id, 'paused', reason, time.now());
    });
    return this.#said(id);
  }

  resume(id: number): BatchInfo {
    const { store, time } = this.#deps;
    store.transaction(() => {
      const batch = this.#batch(id);
      if (batch.state !== 'running' && batch.state !== 'paused') throw this.#ended(batch);
      store.moveItems(id, ['paused'], 'pending');
      store.setState(id, 'running', null, time.now());
    });
    const info = this.#said(id);
    this.#pump(id);
    return info;
  }

  /** Cancels what was not sent yet; what was sent goes on (cancel those jobs one by one). */
  cancel(id: number): BatchInfo {
    const { store, time } = this.#deps;
    store.transaction(() => {
      const batch = this.#batch(id);
      if (batch.state === 'cancelled' || batch.state === 'done') throw this.#ended(batch);
      store.moveItems(id, ['pending', 'paused'], 'cancelled');
      store.setState(id, 'cancelled', null, time.now());
    });
    return this.#said(id);
  }

  /** A jobs row changed: if it is a batch's, a slot may be free (or a resend wait over). */
  jobChanged(row: JobRow): void {
    const batchId = this.#deps.store.batchOfJob(row.local_id);
    if (batchId === null) return;
    this.#said(batchId);
    this.#pump(batchId);
  }

  #batch(id: number): BatchRow {
    const batch = this.#deps.store.get(id);
    if (!batch) throw notFound();
    return batch;
  }

  #ended(batch: BatchRow): AppError {
    return new AppError({
      code: 'conflict',
      message: batch.state === 'cancelled' ? 'This batch was cancelled.' : 'This batch has sent everything already.',
    });
  }

  #said(id: number): BatchInfo {
    const info = batchInfoOf(this.#deps.store, this.#deps.store.mustGet(id));
    this.#deps.changed(info);
    return info;
  }

  /** Sends as many of the batch's next items as its free slots allow. Never throws. */
  #pump(id: number): void {
    if (!this.#running) return;
    try {
      this.#fill(id);
    } catch (error) {
      this.#deps.warn(`Batch ${id} could not send its next items`, error);
    }
  }

  #fill(id: number): void {
    const { store, time } = this.#deps;
    const starting = this.#starting.get(id) ?? new Set<number>();
    this.#starting.set(id, starting);
    for (;;) {
      const batch = store.get(id);
      if (!batch || batch.state !== 'running') return;
      const unanswered = store.unanswered(id);
      // The service asked us to wait (or was busy): nothing new until that request went through.
      if (unanswered.some((item) => item.job_resend_at !== null)) return;
      if (unanswered.length + starting.size >= this.#max) return;
      const item = store.nextPending(id, [...starting]);
      if (!item) {
        if (unanswered.length === 0 && starting.size === 0 && store.counts(id).paused === 0) {
          store.setState(id, 'done', null, time.now());
          this.#said(id);
        }
        return;
      }
      const verdict = (batch.over_budget ? null : this.#deps.budget?.check(item.estimate ?? 0)) ?? { ok: true };
      if (!verdict.ok) {
        this.pause(id, verdict.reason);
        return;
      }
      starting.add(item.position);
      const request = { kind: item.kind, body: JSON.parse(item.request) as unknown } as GenerationRequest;
      const sending = this.#deps
        .submit(request, (row) => {
          if (!store.markSent(id, item.position, row.local_id)) throw new ItemNotPending();
        })
        .then(
          () => undefined,
          (error: unknown) => this.#notSent(id, item.position, item.row, item.expansion, item.of, error),
        )
        .finally(() => {
          starting.delete(item.position);
          if (this.#running) {
            this.#said(id);
            this.#pump(id);
          }
        });
      this.#work = Promise.all([this.#work, sending]).then(() => {});
    }
  }

  /** submit() threw: before its row was written (a refusal, offline) the item is still pending. */
  #notSent(id: number, position: number, row: number, expansion: number | null, of: number, error: unknown): void {
    if (error instanceof ItemNotPending) return;
    const { store } = this.#deps;
    const item = store.items(id).find((i) => i.position === position);
    if (!item || item.state !== 'pending') return; // its row was written: the outbox recorded the outcome
    const info = error instanceof AppError ? error.info : null;
    if (info?.code === 'offline') {
      this.#later(id, OFFLINE_RETRY_MS);
      return;
    }
    const label = rowLabel(row, expansion, of);
    const message = info?.message ?? (error instanceof Error ? error.message : String(error));
    store.markRefused(id, position, `${label}: ${message}`);
  }

  #later(id: number, ms: number): void {
    if (this.#timers.has(id) || !this.#running) return;
    const timer = this.#deps.time.setTimer(() => {
      this.#timers.delete(id);
      this.#pump(id);
    }, ms);
    this.#timers.set(id, timer);
  }
}
