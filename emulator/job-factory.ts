// Creates job records with their whole timeline fixed up front (durations from the job id, outcome from knobs).
import { TRAINING_USUAL_MS } from '../src-main/contract/training-time.ts';
import type { EmulatorContext } from './context.ts';
import { hashInt } from './random.ts';
import type { JobKind, JobRecord } from './records.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * Virtual durations at timeScale 1 (spec: training usually 20–25 minutes; the rest are our choice).
 * `created` only exists for training, whose images are first "prepared"; generation jobs start out queued,
 * matching the trigger response's initial status.
 */
export const JOB_TIMINGS: Record<
  JobKind,
  { created: [number, number]; queued: [number, number]; total: [number, number] }
> = {
  image: { created: [0, 0], queued: [2 * SECOND, 5 * SECOND], total: [15 * SECOND, 30 * SECOND] },
  upscale: { created: [0, 0], queued: [1 * SECOND, 3 * SECOND], total: [10 * SECOND, 20 * SECOND] },
  video: { created: [0, 0], queued: [5 * SECOND, 20 * SECOND], total: [2 * MINUTE, 4 * MINUTE] },
  training: {
    created: [3 * SECOND, 8 * SECOND],
    queued: [20 * SECOND, 60 * SECOND],
    total: [TRAINING_USUAL_MS.min, TRAINING_USUAL_MS.max],
  },
};

/** A prompt containing this word makes its job fail (case-insensitive), so a demo can show failures on purpose. */
export const FAIL_MAGIC_WORD = '[fail]';

export function promptFailure(prompt: unknown): string | undefined {
  return typeof prompt === 'string' && prompt.toLowerCase().includes(FAIL_MAGIC_WORD)
    ? `Generation failed: the prompt asked for a failure (${FAIL_MAGIC_WORD})`
    : undefined;
}

export interface NewJob {
  ownerId: string;
  kind: JobKind;
  modelID: string;
  credits: number;
  /** A failure already decided by the caller (e.g. the magic word); otherwise the jobFailure knob decides. */
  failure?: string;
}

export function createJob(ctx: EmulatorContext, init: NewJob, now: number): JobRecord {
  const id = ctx.store.newId('job');
  const timing = JOB_TIMINGS[init.kind];
  const speed = ctx.jobSpeed;
  const createdFor = Math.round(hashInt(`${id}:created`, ...timing.created) / speed);
  const queuedFor = Math.round(hashInt(`${id}:queued`, ...timing.queued) / speed);
  const total = Math.max(
    createdFor + queuedFor + Math.round(SECOND / speed),
    Math.round(hashInt(`${id}:total`, ...timing.total) / speed),
  );
  const failure = init.failure ?? ctx.faults.decideJobFailure(init.kind);
  const runFor = total - createdFor - queuedFor;
  const job: JobRecord = {
    id,
    ownerId: init.ownerId,
    kind: init.kind,
    modelID: init.modelID,
    createdAt: now,
    createdUntil: now + createdFor,
    queuedUntil: now + createdFor + queuedFor,
    // A failing job gives up halfway through its run rather than at the very end.
    finishAt: now + createdFor + queuedFor + (failure ? Math.ceil(runFor / 2) : runFor),
    outcome: failure ? 'failed' : 'success',
    credits: init.credits,
    outputIds: [],
  };
  if (failure) job.error = failure;
  ctx.store.jobs.set(id, job);
  return job;
}
