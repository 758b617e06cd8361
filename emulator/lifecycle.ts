// Lazy lifecycles: every status is computed from a record's timestamps and the virtual now, so no timers run.
import type { DownloadRecord, JobRecord, ModelRecord } from './records.ts';

export type JobStatus = 'created' | 'queued' | 'running' | 'success' | 'failed';
export type ModelStatus = 'new' | 'training' | 'ready' | 'failed';

export function jobStatusAt(job: JobRecord, now: number): JobStatus {
  if (now < job.createdUntil) return 'created';
  if (now < job.queuedUntil) return 'queued';
  if (now < job.finishAt) return 'running';
  return job.outcome;
}

export function isJobFinished(job: JobRecord, now: number): boolean {
  return now >= job.finishAt;
}

/** The instant of the job's latest transition that has already happened. */
export function jobUpdatedAt(job: JobRecord, now: number): number {
  const transitions = [job.createdAt, job.createdUntil, job.queuedUntil, job.finishAt].filter((t) => t <= now);
  return Math.max(job.createdAt, ...transitions);
}

export function modelStatusAt(model: ModelRecord, training: JobRecord | undefined, now: number): ModelStatus {
  if (training) {
    if (!isJobFinished(training, now)) return 'training';
    return training.outcome === 'success' ? 'ready' : 'failed';
  }
  return model.builtIn ? 'ready' : 'new';
}

export function modelUpdatedAt(model: ModelRecord, training: JobRecord | undefined, now: number): number {
  if (!training) return model.updatedAt;
  return Math.max(model.updatedAt, isJobFinished(training, now) ? training.finishAt : model.updatedAt);
}

export interface DownloadState {
  status: 'inprogress' | 'ready' | 'error';
  percentComplete: number;
}

export function downloadStateAt(download: DownloadRecord, now: number): DownloadState {
  if (now >= download.readyAt) {
    return download.outcome === 'ready'
      ? { status: 'ready', percentComplete: 100 }
      : { status: 'error', percentComplete: 0 };
  }
  const span = Math.max(1, download.readyAt - download.requestedAt);
  const fraction = Math.max(0, now - download.requestedAt) / span;
  // Never 100 while still in progress: clients treat 100 as "about to be ready", not "ready".
  return { status: 'inprogress', percentComplete: Math.min(99, Math.floor(fraction * 100)) };
}
