// watch: keeps the core's background engine running in the foreground (job polling, training
// checks, downloads, uploads) until Ctrl-C, printing what changes. Stopping closes the core
// cleanly; whatever is still in flight is in the database and resumes on the next run.
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import type { DownloadInfo, DownloadQueueInfo, DownloadsChangedInfo } from '../../contract/ipc/library.ts';
import type { TrainingInfo } from '../../contract/ipc/training.ts';
import type { UploadInfo } from '../../contract/ipc/uploads.ts';
import type { Command } from '../command.ts';
import { holdOpen, isJobDone, jobLabel } from '../follow.ts';
import { jobView, type JobView } from '../job-view.ts';
import { localPaths } from '../library-paths.ts';
import { isQueuePaused, pausedDownloadsError } from '../paused-downloads.ts';

export const watch: Command = {
  words: ['watch'],
  followsAutoDownload: true,
  summary: 'Run the background engine (job polling, training checks, downloads) until Ctrl-C.',
  details:
    "Jobs, trainings and downloads still in flight when you stop are kept and resume on the next run of watch, --wait or the app. Finished outputs are downloaded when the app's Auto-download setting is on (other commands download only with --download). Downloads waiting on a paused queue (the library's disk nearly full, paused in the app, the folder moving) end watch with exit code 5 and what to do.",
  async run(ctx) {
    const session = await ctx.session();
    await session.requireAccount();
    const finishedJobs = new Map<number, JobInfo>();
    const trainings = new Map<string, TrainingInfo>();
    const downloads = new Map<string, DownloadInfo>();
    const uploads = new Map<number, UploadInfo>();
    const lastJobState = new Map<number, string>();

    const inFlight = (await session.call('jobs:list', { limit: 500 })).filter((job) => !isJobDone(job));
    for (const job of inFlight) lastJobState.set(job.localId, job.state);
    const training = (await session.call('models:list', undefined)).filter(
      (m) => m.training.state === 'training' || m.training.state === 'slow',
    );
    const queue = (await session.call('library:downloads', undefined)).queue;
    // Downloads waiting on a paused queue cannot move while watch runs: that ends it (exit 5).
    const stuck = (info: DownloadQueueInfo): boolean => isQueuePaused(info) && info.active + info.waiting > 0;
    let pausedQueue: DownloadQueueInfo | null = stuck(queue) ? queue : null;
    let endWait = (): void => {};
    const jobsText = inFlight.length > 0 ? `: ${inFlight.map(jobLabel).join(', ')}` : '';
    ctx.out.note(
      `watching ${inFlight.length} job(s)${jobsText}, ${training.length} training(s), ${queue.active + queue.waiting} download(s); Ctrl-C stops`,
    );

    const unsubscribe = session.core.events.subscribe((event, payload) => {
      if (event === 'jobs:changed') {
        const job = payload as JobInfo;
        if (lastJobState.get(job.localId) === job.state) return;
        lastJobState.set(job.localId, job.state);
        if (isJobDone(job)) finishedJobs.set(job.localId, job);
        const extra =
          job.state === 'succeeded'
            ? ` (${job.outputs.length} output(s))`
            : job.error && isJobDone(job)
              ? `: ${job.error}`
              : '';
        ctx.out.note(`job ${jobLabel(job)}: ${job.state}${extra}`);
      } else if (event === 'training:changed') {
        const info = payload as TrainingInfo;
        if (trainings.get(info.modelId)?.state !== info.state)
          ctx.out.note(`training ${info.modelId}: ${info.message}`);
        trainings.set(info.modelId, info);
      } else if (event === 'downloads:changed') {
        const change = payload as DownloadsChangedInfo;
        if (pausedQueue === null && stuck(change.queue)) {
          pausedQueue = change.queue;
          endWait();
        }
        for (const item of change.changed) {
          const key = `${item.asset.kind}:${item.asset.id}`;
          const before = downloads.get(key)?.state;
          downloads.set(key, item);
          if (before === item.state) continue;
          if (item.state === 'succeeded') ctx.out.note(`downloaded ${item.asset.kind} ${item.asset.id}`);
          else if (item.state === 'failed')
            ctx.out.note(`download of ${item.asset.kind} ${item.asset.id} failed: ${item.error?.message ?? ''}`);
        }
      } else if (event === 'uploads:changed') {
        const upload = payload as UploadInfo;
        const before = uploads.get(upload.id)?.state;
        uploads.set(upload.id, upload);
        if (before !== upload.state && (upload.state === 'succeeded' || upload.state === 'failed')) {
          ctx.out.note(`upload ${upload.fileName}: ${upload.state}${upload.error ? `: ${upload.error}` : ''}`);
        }
      }
    });

    const release = holdOpen();
    await new Promise<void>((resolve) => {
      endWait = resolve;
      if (ctx.signal.aborted || pausedQueue !== null) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    release();
    unsubscribe();
    ctx.out.note(
      pausedQueue === null
        ? 'stopping; anything still in flight resumes next time'
        : 'stopping: downloads are paused; anything still in flight resumes next time',
    );

    const jobs: JobView[] = [];
    for (const job of finishedJobs.values()) {
      jobs.push(
        jobView(
          job,
          await localPaths(
            session,
            job.outputs.map((o) => ({ kind: o.kind, id: o.id })),
          ),
        ),
      );
    }
    const summary = {
      stopped: true,
      finishedJobs: jobs,
      trainings: [...trainings.values()],
      downloads: [...downloads.values()].filter((d) => d.state === 'succeeded' || d.state === 'failed'),
    };
    ctx.out.result(summary, () =>
      ctx.out.quiet
        ? jobs.map((job) => job.jobId ?? String(job.localId))
        : `${jobs.length} job(s) finished while watching`,
    );
    if (pausedQueue !== null) throw await pausedDownloadsError(session, pausedQueue);
  },
};
