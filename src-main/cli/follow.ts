// Waiting in the foreground for work the core's background engine does: a job until it ends, a
// training until ready/failed, downloads until committed. The engine does the polling (its own
// intervals, batching and backoff); this only listens to the core's change events, and reads
// the local record now and then in case an event came before the listener.
import type { EventChannel } from '../contract/ipc.ts';
import type { JobInfo } from '../contract/ipc/jobs.ts';
import type { AssetRefInfo, DownloadInfo, DownloadQueueInfo, DownloadsChangedInfo } from '../contract/ipc/library.ts';
import type { TrainingInfo } from '../contract/ipc/training.ts';
import type { CliContext } from './command.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { isQueuePaused, pausedDownloadsError } from './paused-downloads.ts';
import type { Session } from './session.ts';

const RECHECK_MS = 2_000;

/**
 * The engine's timers are unref'd (a pending poll must not keep a process alive on its own), so a
 * command that waits only for its events has to hold the process open itself until it is done.
 */
export function holdOpen(): () => void {
  const timer = setInterval(() => {}, 60_000);
  return () => clearInterval(timer);
}

export const isJobDone = (job: JobInfo): boolean =>
  job.state === 'succeeded' || job.state === 'failed' || job.state === 'unknown';

const isTrainingDone = (info: TrainingInfo): boolean =>
  info.state === 'ready' || info.state === 'failed' || info.state === 'idle';

const isDownloadDone = (info: DownloadInfo): boolean => info.state === 'succeeded' || info.state === 'failed';

export const jobLabel = (job: Pick<JobInfo, 'jobId' | 'localId'>): string => job.jobId ?? `local job ${job.localId}`;

/**
 * Waits for `matches` events (or a recheck) to report `done`. `recheck` reads local state only.
 * Ctrl-C stops the wait, never the work: the engine resumes it on the next run.
 */
async function waitFor<T>(
  ctx: CliContext,
  session: Session,
  pick: (event: EventChannel, payload: unknown) => T | null,
  recheck: () => Promise<T>,
  done: (value: T) => boolean,
  onUpdate: (value: T) => void,
  stoppedMessage: string,
): Promise<T> {
  const first: T = await recheck();
  onUpdate(first);
  if (done(first)) return first;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      unsubscribe();
      clearInterval(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const take = (value: T): void => {
      onUpdate(value);
      if (done(value)) finish(() => resolve(value));
    };
    const unsubscribe = session.core.events.subscribe((name, payload) => {
      const value = pick(name, payload);
      if (value !== null) take(value);
    });
    const timer = setInterval(() => {
      recheck().then(take, (error: unknown) => finish(() => reject(error)));
    }, RECHECK_MS);
    const onAbort = (): void =>
      finish(() => reject(new CliError({ code: 'internal', message: stoppedMessage }, EXIT.interrupted)));
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function followJob(ctx: CliContext, session: Session, job: JobInfo): Promise<JobInfo> {
  const progress = ctx.out.progress(`job ${jobLabel(job)}`);
  let shown = '';
  try {
    const final = await waitFor(
      ctx,
      session,
      (event, payload) =>
        event === 'jobs:changed' && (payload as JobInfo).localId === job.localId ? (payload as JobInfo) : null,
      () => session.call('jobs:get', { localId: job.localId }),
      isJobDone,
      (current) => {
        const status =
          current.serviceStatus && current.serviceStatus !== current.state
            ? `${current.state} (${current.serviceStatus})`
            : current.state;
        if (status !== shown) progress.update(status);
        shown = status;
      },
      `Stopped waiting. The job keeps running on the service; \`atelier jobs wait ${jobLabel(job)}\` or \`atelier watch\` picks it up again.`,
    );
    progress.done();
    return final;
  } catch (error) {
    progress.done();
    throw error;
  }
}

export async function followTraining(ctx: CliContext, session: Session, modelId: string): Promise<TrainingInfo> {
  const progress = ctx.out.progress(`training ${modelId}`);
  try {
    const final = await waitFor(
      ctx,
      session,
      (event, payload) =>
        event === 'training:changed' && (payload as TrainingInfo).modelId === modelId
          ? (payload as TrainingInfo)
          : null,
      () => session.call('training:status', { modelId }),
      isTrainingDone,
      (info) => progress.update(info.message),
      `Stopped waiting. Training goes on on the service; \`atelier models train ${modelId} --wait\` or \`atelier watch\` follows it again.`,
    );
    progress.done();
    return final;
  } catch (error) {
    progress.done();
    throw error;
  }
}

const sameAsset = (a: AssetRefInfo, b: AssetRefInfo): boolean => a.kind === b.kind && a.id === b.id;

/**
 * Queues the assets in the library's download queue and waits until each is committed or failed.
 * A paused queue (disk nearly full, paused in the app, a folder move) cannot end the wait: it ends
 * the command with EXIT.paused, the rows left queued for the next run.
 */
export async function downloadAll(
  ctx: CliContext,
  session: Session,
  assets: readonly AssetRefInfo[],
  videoMode?: 'mp4' | 'hls',
): Promise<DownloadInfo[]> {
  if (assets.length === 0) return [];
  await session.call('library:download', { assets: [...assets], ...(videoMode ? { videoMode } : {}) });
  const results: DownloadInfo[] = [];
  let queue: DownloadQueueInfo | null = null;
  const paused = (): boolean => queue !== null && isQueuePaused(queue);
  for (const asset of assets) {
    const progress = ctx.out.progress(`download ${asset.kind} ${asset.id}`);
    let last: DownloadInfo | null = null;
    const readOne = async (): Promise<DownloadInfo> => {
      const all = await session.call('library:downloads', undefined);
      queue = all.queue;
      const found = all.items.find((item) => sameAsset(item.asset, asset));
      if (!found)
        throw new CliError(
          { code: 'internal', message: `The download of ${asset.kind} ${asset.id} left the queue.` },
          EXIT.failure,
        );
      return (last = found);
    };
    try {
      const final = await waitFor(
        ctx,
        session,
        (event, payload) => {
          if (event !== 'downloads:changed') return null;
          const change = payload as DownloadsChangedInfo;
          queue = change.queue;
          const found = change.changed.find((item) => sameAsset(item.asset, asset));
          if (found) last = found;
          // A pause changes no item: the last known state is looked at again with the queue's.
          return found ?? (paused() ? last : null);
        },
        readOne,
        (info) => isDownloadDone(info) || paused(),
        (info) => progress.update(info.state === 'preparing' ? 'preparing on the service' : info.state, info.progress),
        'Stopped waiting. The download resumes where it stopped on the next run (`atelier watch`).',
      );
      progress.done();
      if (!isDownloadDone(final) && queue !== null) throw await pausedDownloadsError(session, queue);
      results.push(final);
    } catch (error) {
      progress.done();
      throw error;
    }
  }
  return results;
}
