// The submission outbox, where a generation request enters the core: checked and normalised once
// (what the rules refuse never leaves the machine), the job row written BEFORE the POST, completed
// with the service's jobId after. A POST the service clearly did not take (resend-policy.ts) waits
// and is sent again as the same row; one whose fate is unknown stays 'submitting' for
// reconciliation, which hands it back here only when the job list shows nothing arrived.
import { AppError } from '../../contract/errors.ts';
import type { SubmitOriginInfo } from '../../contract/ipc/jobs.ts';
import type { FieldProblem, GenerationRequest } from '../../contract/rules/index.ts';
import { errorInfoOf } from '../api/backoff.ts';
import { checkedRequest, refusedRequest, type TriggerRequest } from '../api/generation-request.ts';
import type { EngineTime, TimerHandle } from '../host/time.ts';
import { activeStateOf, pollIntervalOf } from './job-info.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import { classifySubmitFailure, gaveUpMessage, MAX_SENDS, resendDelay, waitingMessage } from './resend-policy.ts';
import { checkTrigger, type JobsService } from './service-port.ts';

export interface OutboxDeps {
  store: JobsRepo;
  service: JobsService;
  time: EngineTime;
  /** Model id of the image an upscale starts from, when the library knows it. */
  modelOfImage(imageId: string): string | null;
  isOnline(): boolean;
  changed(row: JobRow): void;
  /** A POST ended without a usable answer: reconcile this row soon. */
  needsReconcile(localId: number): void;
  /** A job is in flight: the poller should plan its next check. */
  submitted(row: JobRow): void;
  /** Why this request's model cannot generate now (a trained model that is not ready), or null. */
  modelRefusal?(request: TriggerRequest): Promise<FieldProblem | null>;
  /**
   * The service answered with a job this app had kept as "found on the service, not tied to a
   * request" (reconciliation was unsure): the answer says whose it is, so `row` takes it over.
   */
  takeOver?(unattributed: JobRow, row: JobRow): void;
}

export class Outbox {
  readonly #deps: OutboxDeps;
  /** Rows whose POST is under way in this process: reconciliation must leave them alone. */
  readonly #posting = new Set<number>();
  #timer: TimerHandle | null = null;
  #timerAt: number | null = null;
  #running = false;
  /** The resends under way (settled() waits for them). */
  #sending: Promise<void> = Promise.resolve();

  constructor(deps: OutboxDeps) {
    this.#deps = deps;
  }

  /** Starts sending the rows waiting for a resend (also those a previous run left waiting). */
  start(): void {
    this.#running = true;
    this.#arm();
  }

  stop(): void {
    this.#running = false;
    this.#disarm();
  }

  /** Resolves when no resend started by the timer is under way. */
  async settled(): Promise<void> {
    let seen: Promise<void> | null = null;
    while (seen !== this.#sending) {
      seen = this.#sending;
      await seen;
    }
  }

  /** Reconciliation found nothing of this row on the service: send it again (as the same row). */
  resend(row: JobRow): void {
    const now = this.#deps.time.now();
    if (row.resend_at === null) this.#deps.store.update(row.local_id, { resendAt: now }, now);
    this.#arm();
  }

  /**
   * The user's "Don't send again": a row waiting for a resend fails at once (nothing was created);
   * one whose first try may have arrived is only not resent (the job list still decides what it was).
   */
  cancelResend(localId: number): JobRow {
    const { store, time } = this.#deps;
    const row = store.get(localId);
    if (!row) throw new AppError({ code: 'not_found', message: 'That job is not in this library.', field: 'localId' });
    if (row.state !== 'submitting' || row.job_id !== null)
      throw new AppError({
        code: 'conflict',
        message: 'This job is not waiting to be sent, so there is nothing to cancel.',
      });
    if (this.#posting.has(localId))
      throw new AppError({
        code: 'conflict',
        message: 'It is being sent right now; wait a moment and see whether the service took it.',
      });
    const now = time.now();
    if (row.resend_at !== null) {
      store.update(
        localId,
        {
          state: 'failed',
          resendAt: null,
          resendCancelled: 1,
          error: 'Not sent: you cancelled it while it waited, so nothing was created.',
          finishedAt: now,
          notifiedAt: now,
        },
        now,
      );
    } else {
      store.update(
        localId,
        {
          resendCancelled: 1,
          error: 'It will not be sent again; checking whether the service received the first try.',
        },
        now,
      );
    }
    const done = store.mustGet(localId);
    this.#deps.changed(done);
    this.#arm();
    return done;
  }

  isPosting(localId: number): boolean {
    return this.#posting.has(localId);
  }

  /**
   * Where a generation request enters the core: checked and normalised once, refused if its model
   * cannot generate or the machine is offline, then recorded and sent. Resolves with the row after
   * the POST (or throws a refusal). `link` runs in the transaction that writes the row (a batch marks
   * its item sent there: both are written or neither, so a restart never sends the item twice); if
   * it throws, nothing is written or sent.
   */
  async submit(request: GenerationRequest & SubmitOriginInfo, link?: (row: JobRow) => void): Promise<JobRow> {
    const sent = await this.#readyToSend(request);
    const { store, time } = this.#deps;
    const insert = () =>
      store.insert({
        kind: sent.kind,
        modelId: this.#modelIdOf(sent),
        request: sent.body,
        originJobId: request.originJobId ?? null,
        now: time.now(),
      });
    const row = link
      ? store.transaction(() => {
          const made = insert();
          link(made);
          return made;
        })
      : insert();
    this.#deps.changed(row);
    return this.#post(row, sent);
  }

  /** Sends a failed or unknown job's request again as a NEW row; the old row points at it. */
  async resubmit(localId: number): Promise<JobRow> {
    const { store } = this.#deps;
    const old = store.get(localId);
    if (!old) throw new AppError({ code: 'not_found', message: 'That job is not in this library.', field: 'localId' });
    if (old.state !== 'failed' && old.state !== 'unknown') {
      throw new AppError({
        code: 'conflict',
        message: 'Only a failed job or one whose fate is unknown can be sent again.',
      });
    }
    if (old.resubmitted_as !== null || old.kind === 'training') {
      throw new AppError({ code: 'conflict', message: 'This job was already sent again.' });
    }
    // Checked again like a new request: the rules or the model may have changed since.
    const request = await this.#readyToSend({ kind: old.kind, body: JSON.parse(old.request) as unknown });
    const now = this.#deps.time.now();
    // Row and link in one transaction: a second click finds resubmitted_as set and stops here.
    const fresh = store.transaction(() => {
      const row = store.insert({ kind: request.kind, modelId: old.model_id, request: request.body, now });
      if (!store.markResubmitted(old.local_id, row.local_id, now)) {
        throw new AppError({ code: 'conflict', message: 'This job was already sent again.' });
      }
      return row;
    });
    this.#deps.changed(store.mustGet(old.local_id));
    this.#deps.changed(fresh);
    return this.#post(fresh, request);
  }

  /** Every check of a request on its way out, in order: the rules (`checkedRequest`), the model's readiness, the network. */
  async #readyToSend(request: GenerationRequest): Promise<TriggerRequest> {
    const checked = checkedRequest(request);
    const refusal = (await this.#deps.modelRefusal?.(checked)) ?? null;
    if (refusal) throw refusedRequest([refusal]);
    if (!this.#deps.isOnline()) {
      throw new AppError({
        code: 'offline',
        message: 'You are offline: the job was not sent. Try again when the network is back.',
      });
    }
    return checked;
  }

  async #post(row: JobRow, request: TriggerRequest): Promise<JobRow> {
    const { store, service, time } = this.#deps;
    this.#posting.add(row.local_id);
    const sends = row.sends + 1;
    const started = time.now();
    // The window its job can be created in starts now (an earlier try certainly created nothing).
    store.update(row.local_id, { sentAt: started, sends, resendAt: null }, started);
    try {
      const trigger = checkTrigger(await service.submit(request));
      const now = time.now();
      const known = store.getByJobId(trigger.jobId);
      if (known && known.unattributed === 1 && this.#deps.takeOver) {
        // Reconciliation had kept it as "not tied to a request"; the service's answer ties it.
        this.#deps.takeOver(known, store.mustGet(row.local_id));
      } else if (known && known.local_id !== row.local_id) {
        // Only possible if reconciliation adopted this id meanwhile; keep one row per job.
        store.update(
          row.local_id,
          {
            state: 'unknown',
            error: `The service reported job ${trigger.jobId}, which another entry already follows.`,
          },
          now,
        );
      } else {
        store.update(
          row.local_id,
          {
            jobId: trigger.jobId,
            state: activeStateOf(trigger.status),
            serviceStatus: trigger.status,
            error: null,
            submittedAt: now,
            nextPollAt: now + pollIntervalOf(row.kind),
            attempts: 0,
          },
          now,
        );
      }
      const done = store.mustGet(row.local_id);
      this.#deps.changed(done);
      this.#deps.submitted(done);
      return done;
    } catch (error) {
      const info = errorInfoOf(error);
      const now = time.now();
      const failure = classifySubmitFailure(error);
      const cancelled = store.get(row.local_id)?.resend_cancelled === 1;
      if (failure === 'not_taken' && sends < MAX_SENDS && !cancelled) {
        // Nothing was created: wait (Retry-After or backoff) and send it again as this same row.
        const delay = resendDelay(info, sends, time.random);
        store.update(row.local_id, { resendAt: now + delay, error: waitingMessage(info, delay) }, now);
        const waiting = store.mustGet(row.local_id);
        this.#deps.changed(waiting);
        this.#arm();
        return waiting;
      }
      if (failure !== 'unknown') {
        // Shown in the form right away, so no OS notification later (notified_at is set).
        const message = failure === 'not_taken' && !cancelled ? gaveUpMessage(info, sends) : info.message;
        store.update(row.local_id, { state: 'failed', error: message, finishedAt: now, notifiedAt: now }, now);
        this.#deps.changed(store.mustGet(row.local_id));
        if (sends > 1) return store.mustGet(row.local_id);
        throw new AppError({ ...info, message });
      }
      store.update(
        row.local_id,
        { error: 'No clear answer from the service; checking whether it received this job.', attempts: 1 },
        now,
      );
      const pending = store.mustGet(row.local_id);
      this.#deps.changed(pending);
      this.#deps.needsReconcile(row.local_id);
      return pending;
    } finally {
      this.#posting.delete(row.local_id);
    }
  }

  /** Sends the rows whose resend is due; re-arms for the next. */
  async #sendDue(): Promise<void> {
    const { store, time } = this.#deps;
    const now = time.now();
    for (const row of store.waitingResends()) {
      if (!this.#running) return;
      if (row.resend_at === null || row.resend_at > now || this.#posting.has(row.local_id)) continue;
      if (!store.claimForSending(row.local_id)) continue;
      if (!this.#deps.isOnline()) {
        store.update(row.local_id, { resendAt: now + 10_000, error: 'Waiting for the network to send it again.' }, now);
        this.#deps.changed(store.mustGet(row.local_id));
        continue;
      }
      const request = { kind: row.kind, body: JSON.parse(row.request) as unknown } as TriggerRequest;
      try {
        await this.#post(row, request);
      } catch {
        // A refusal is recorded on the row (failed, with the reason); nothing more to do here.
      }
    }
  }

  #arm(): void {
    if (!this.#running) return;
    const waiting = this.#deps.store.waitingResends();
    const next = waiting.reduce<number | null>(
      (at, row) => (at === null ? row.resend_at : Math.min(at, row.resend_at!)),
      null,
    );
    if (next === null) return this.#disarm();
    if (this.#timer !== null && this.#timerAt !== null && this.#timerAt <= next) return;
    this.#disarm();
    this.#timerAt = next;
    this.#timer = this.#deps.time.setTimer(
      () => {
        this.#timer = null;
        this.#timerAt = null;
        const sending = this.#sendDue()
          .catch(() => {})
          .finally(() => this.#arm());
        this.#sending = Promise.all([this.#sending, sending]).then(() => {});
      },
      Math.max(0, next - this.#deps.time.now()),
    );
  }

  #disarm(): void {
    if (this.#timer !== null) this.#deps.time.clearTimer(this.#timer);
    this.#timer = null;
    this.#timerAt = null;
  }

  #modelIdOf(request: TriggerRequest): string | null {
    return request.kind === 'upscale' ? this.#deps.modelOfImage(request.body.imageID) : request.body.modelID;
  }
}
