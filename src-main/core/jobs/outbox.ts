// The submission outbox, where a generation request enters the core: checked and normalised once
// (what the rules refuse never leaves the machine), the job row written BEFORE the POST, completed
// with the service's jobId after. A POST whose answer was lost leaves the row 'submitting' for
// reconciliation: it is never sent again on its own.
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import type { FieldProblem, GenerationRequest } from '../../contract/rules/index.ts';
import { errorInfoOf } from '../api/backoff.ts';
import { checkedRequest, refusedRequest, type TriggerRequest } from '../api/generation-request.ts';
import { neverSent } from '../api/unsent.ts';
import type { EngineTime } from '../host/time.ts';
import { activeStateOf, pollIntervalOf } from './job-info.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
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
}

/** The request was refused, or never left: the service created nothing (safe to say "failed"). */
function refusedForSure(info: ErrorInfo, error: unknown): boolean {
  if (
    ['validation', 'invalid_argument', 'auth', 'not_found', 'rate_limited', 'conflict', 'offline'].includes(info.code)
  )
    return true;
  if (info.code === 'network' && neverSent(error)) return true;
  return info.httpStatus !== undefined && info.httpStatus >= 400 && info.httpStatus < 500;
}

export class Outbox {
  readonly #deps: OutboxDeps;
  /** Rows whose POST is under way in this process: reconciliation must leave them alone. */
  readonly #posting = new Set<number>();

  constructor(deps: OutboxDeps) {
    this.#deps = deps;
  }

  isPosting(localId: number): boolean {
    return this.#posting.has(localId);
  }

  /**
   * Where a generation request enters the core: checked and normalised once, refused if its model
   * cannot generate or the machine is offline, then recorded and sent. Resolves with the row after
   * the POST (or throws a refusal).
   */
  async submit(request: GenerationRequest): Promise<JobRow> {
    const sent = await this.#readyToSend(request);
    const { store, time } = this.#deps;
    const row = store.insert({ kind: sent.kind, modelId: this.#modelIdOf(sent), request: sent.body, now: time.now() });
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

  /** The one check of a request on its way out: the rules, the model's readiness, the network. */
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
    try {
      const trigger = checkTrigger(await service.submit(request));
      const now = time.now();
      const known = store.getByJobId(trigger.jobId);
      if (known && known.local_id !== row.local_id) {
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
      if (refusedForSure(info, error)) {
        // Shown in the form right away, so no OS notification later (notified_at is set).
        store.update(row.local_id, { state: 'failed', error: info.message, finishedAt: now, notifiedAt: now }, now);
        this.#deps.changed(store.mustGet(row.local_id));
        throw new AppError(info);
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

  #modelIdOf(request: TriggerRequest): string | null {
    return request.kind === 'upscale' ? this.#deps.modelOfImage(request.body.imageID) : request.body.modelID;
  }
}
