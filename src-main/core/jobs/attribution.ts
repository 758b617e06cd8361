// Tying a job found on the service (kept unattributed by reconciliation) to the request that sent
// it: when the user confirms "This is it", or when the service's own answer to that request names
// the job. Only then the request's prompt and settings reach the job's outputs in the library.
import { AppError } from '../../contract/errors.ts';
import type { Job } from '../../contract/service.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import type { EngineTime } from '../host/time.ts';
import { candidateRowsOf, outputsOf } from './job-info.ts';
import { recordOutputs } from './outputs.ts';
import { sentAtOf } from './reconcile.ts';

export const NOT_THIS_ONE_MESSAGE =
  'The job found on the service for that moment was another request’s. Nothing else from then is on the service: send it again if you still want it.';

export interface AttributionDeps {
  cache: AccountDb;
  store: JobsRepo;
  time: EngineTime;
  changed(row: JobRow): void;
}

const refuse = (message: string, field?: string): never => {
  throw new AppError({ code: 'conflict', message, ...(field ? { field } : {}) });
};

/**
 * The user's confirmed choice: `jobLocalId` (an unattributed job) is `rowLocalId`'s. Checked: the
 * job is still unattributed, the row is one of its possible senders and follows no job yet, and
 * what the job made fits the request's kind.
 */
export function attributeJob(deps: AttributionDeps, jobLocalId: number, rowLocalId: number): JobRow {
  const { store } = deps;
  const job = store.get(jobLocalId);
  const row = store.get(rowLocalId);
  if (!job || job.unattributed !== 1 || job.job_id === null)
    throw new AppError({
      code: 'not_found',
      field: 'jobLocalId',
      message: 'That job is no longer waiting to be tied to a request (it may have been tied already).',
    });
  if (!row || row.unattributed === 1)
    throw new AppError({ code: 'not_found', field: 'rowLocalId', message: 'That request is not in this library.' });
  if (!candidateRowsOf(job).includes(row.local_id))
    refuse('That request cannot have created this job (it was not sent at that moment).', 'rowLocalId');
  if (row.job_id !== null) refuse('That request already follows its own job.', 'rowLocalId');
  const made = outputsOf(job)[0]?.kind;
  if (made !== undefined && (made === 'video') !== (row.kind === 'video'))
    refuse(
      `This job made ${made === 'video' ? 'videos' : 'images'}; that request asked for ${row.kind === 'video' ? 'a video' : 'images'}.`,
    );
  return tieJob(deps, job, row);
}

/** Moves the service job of `job` (an unattributed row) onto `row`, which takes over its state and outputs. */
export function tieJob(deps: AttributionDeps, job: JobRow, row: JobRow): JobRow {
  const { cache, store, time } = deps;
  const now = time.now();
  const others = candidateRowsOf(job).filter((id) => id !== row.local_id);
  const released: number[] = [];
  store.transaction(() => {
    store.delete(job.local_id);
    store.update(
      row.local_id,
      {
        jobId: job.job_id,
        state: job.state,
        serviceStatus: job.service_status,
        error: job.error,
        submittedAt: sentAtOf(row),
        serviceCreatedAt: job.service_created_at,
        nextPollAt: job.next_poll_at,
        attempts: job.attempts,
        lastPolledAt: job.last_polled_at,
        finishedAt: job.finished_at,
        notifiedAt: job.notified_at,
        outputs: job.outputs === null ? null : outputsOf(job),
        credits: job.credits,
        resendAt: null,
      },
      now,
    );
    const tied = store.mustGet(row.local_id);
    if (tied.state === 'succeeded' && job.job_id !== null) {
      // Its outputs were recorded with no request; now they carry this request's prompt and settings.
      const outputs = outputsOf(job);
      const record: Job = {
        jobId: job.job_id,
        status: job.service_status ?? 'success',
        images: outputs.filter((o) => o.kind === 'image').map((o) => ({ id: o.id, url: o.url })),
        videos: outputs.filter((o) => o.kind === 'video').map((o) => ({ id: o.id, url: o.url })),
      } as Job;
      const recorded = recordOutputs(cache, tied, record, now);
      store.update(row.local_id, { outputs: recorded.infos }, now);
    }
    // The row follows its own job now: it is no other found job's possible sender any more.
    for (const other of store.unattributedNaming([row.local_id])) {
      const rest = candidateRowsOf(other).filter((id) => id !== row.local_id);
      store.update(other.local_id, { candidateRows: rest }, now);
      released.push(other.local_id);
    }
    // A row that may have sent only this job now has nothing left that can be its own.
    const stillNamed = new Set(store.unattributedNaming(others).flatMap((j) => candidateRowsOf(j)));
    for (const id of others) {
      const other = store.get(id);
      if (!other || other.state !== 'unknown' || other.job_id !== null || stillNamed.has(id)) continue;
      store.update(id, { error: NOT_THIS_ONE_MESSAGE }, now);
      released.push(id);
    }
  });
  const tied = store.mustGet(row.local_id);
  deps.changed(tied);
  for (const id of released) deps.changed(store.mustGet(id));
  return tied;
}
