// jobs list | get | wait: the service's job history, one job (local record when Atelier follows
// it, else the service's), and waiting for a job with the engine.
import type { JobInfo, JobSummaryInfo } from '../../contract/ipc/jobs.ts';
import { clipLine } from '../../contract/job-title.ts';
import { modelName } from '../../contract/names.ts';
import type { Command } from '../command.ts';
import { DOWNLOAD_OPTION, arg, bool, string, text } from '../command.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { finishJob } from '../job-flow.ts';
import { jobLines, jobView } from '../job-view.ts';
import { localPaths } from '../library-paths.ts';
import { fields, table } from '../output.ts';
import type { Session } from '../session.ts';
import { serviceClient } from '../service-access.ts';

const DAY_MS = 24 * 60 * 60_000;

/** A job Atelier follows in this data folder, by local number or by the service's job id. */
export async function findLocalJob(session: Session, id: string): Promise<JobInfo | null> {
  if (/^\d+$/.test(id)) {
    const result = await session.core.dispatch('jobs:get', { localId: Number(id) });
    if (result.ok) return result.value as JobInfo;
  }
  const recent = await session.call('jobs:list', { limit: 500 });
  return recent.find((job) => job.jobId === id) ?? null;
}

const jobsList: Command = {
  words: ['jobs', 'list'],
  summary: "The service's list of your jobs (default: the last 24 hours; a range is at most 7 days).",
  options: {
    start: string('Start of the range, RFC 3339 (e.g. 2025-05-01T00:00:00Z).', 'RFC3339'),
    end: string('End of the range, RFC 3339 (default: now).', 'RFC3339'),
  },
  async run(ctx, input) {
    const endText = text(input, 'end');
    const startText = text(input, 'start');
    const endMs = endText !== undefined ? Date.parse(endText) : Date.now();
    const end = endText ?? new Date(endMs).toISOString();
    const start = startText ?? new Date((Number.isFinite(endMs) ? endMs : Date.now()) - DAY_MS).toISOString();
    const session = await ctx.session();
    await session.requireAccount();
    const jobs: JobSummaryInfo[] = [];
    let pageToken: string | undefined;
    do {
      const page = await session.call('jobs:history', { start, end, ...(pageToken ? { pageToken } : {}) });
      jobs.push(...page.jobs);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    ctx.out.result({ start, end, jobs }, () =>
      ctx.out.quiet
        ? jobs.map((job) => job.jobId)
        : table(
            ['JOB', 'STATUS', 'MODEL', 'PROMPT', 'CREATED', 'CREDITS', 'LOCAL', 'ERROR'],
            jobs.map((job) => [
              job.jobId,
              job.status,
              job.modelId ? modelName(job.modelId) : null,
              job.prompt ? clipLine(job.prompt, 40) : null,
              job.createdAt,
              job.credits,
              job.localId,
              job.errorMessage,
            ]),
          ),
    );
  },
};

const jobsGet: Command = {
  words: ['jobs', 'get'],
  summary: 'One job: as Atelier follows it (with local paths), or as the service reports it.',
  positionals: [{ name: 'ID', required: true }],
  async run(ctx, input) {
    const id = arg(input, 'ID');
    const session = await ctx.session();
    await session.requireAccount();
    const local = await findLocalJob(session, id);
    if (local) {
      const view = jobView(local, await localPathsOfJob(session, local));
      ctx.out.result(view, () => jobLines(view));
      return;
    }
    // Not submitted from this data folder: ask the service directly (GET /jobs/{id}).
    const job = await (await serviceClient(session)).getJob(id);
    ctx.out.result(job, () => fields({ ...job }));
  },
};

const jobsWait: Command = {
  words: ['jobs', 'wait'],
  summary: 'Wait for a job with the background engine, then print it (and download its outputs).',
  positionals: [{ name: 'ID', required: true }],
  options: { download: DOWNLOAD_OPTION },
  async run(ctx, input) {
    const id = arg(input, 'ID');
    const session = await ctx.session();
    await session.requireAccount();
    const job = await findLocalJob(session, id);
    if (!job) {
      throw new CliError(
        {
          code: 'not_found',
          message: `Atelier does not follow job ${id} in this data folder; \`atelier jobs get ${id}\` asks the service.`,
          field: 'ID',
        },
        EXIT.usage,
      );
    }
    await finishJob(ctx, session, job, { wait: true, download: bool(input, 'download') });
  },
};

async function localPathsOfJob(session: Session, job: JobInfo): Promise<Map<string, string>> {
  return localPaths(
    session,
    job.outputs.map((o) => ({ kind: o.kind, id: o.id })),
  );
}

export const jobsCommands: readonly Command[] = [jobsList, jobsGet, jobsWait];
