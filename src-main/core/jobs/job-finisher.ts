// The end of a job the poller saw finish: its outputs recorded (one transaction with the row), the
// job marked succeeded or failed, the views told, the OS notification queued and new outputs handed
// to the library's download queue.
import { isJobSuccess, type Job, type JobSummary } from '../../contract/service.ts';
import type { AccountDb } from '../db/account-db.ts';
import { parseTime } from '../db/values.ts';
import type { EventBus } from '../events.ts';
import type { EngineTime } from '../host/time.ts';
import type { FinishNotifier } from './finish-notifier.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import { recordOutputs, type OutputAsset } from './outputs.ts';

export interface JobFinisherDeps {
  cache: AccountDb;
  store: JobsRepo;
  events: EventBus;
  time: EngineTime;
  finishNotifier: FinishNotifier;
  changed(row: JobRow): void;
  /** New outputs, for the library's download queue (auto-download is decided there). */
  onOutputs?: ((assets: OutputAsset[]) => void) | undefined;
  warn(message: string, error?: unknown): void;
}

export type FinishJob = (row: JobRow, job: Job, summary: JobSummary | null) => void;

export function jobFinisher(deps: JobFinisherDeps): FinishJob {
  const { cache, store, events, time } = deps;
  return (row, job, summary) => {
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
    deps.changed(store.mustGet(row.local_id));
    if (upscaledSource)
      events.emit('assets:changed', {
        reason: 'job',
        kinds: ['image'],
        assets: [{ kind: 'image', id: upscaledSource }],
      });
    deps.finishNotifier.add(row.local_id);
    if (assets.length > 0 && deps.onOutputs) {
      try {
        deps.onOutputs(assets);
      } catch (error) {
        deps.warn('Handing new outputs to the library failed', error);
      }
    }
  };
}
