// The shared path of generate image, generate video, upscale and jobs wait: refuse locally what
// the rules refuse (before the core is even opened, so nothing can be sent), submit through the
// core's outbox, then optionally follow the job and download its outputs into the library.
import type { FieldProblem } from '../contract/rules/index.ts';
import { notices, refusalInfo, validate } from '../contract/rules/index.ts';
import type { JobInfo, JobKindInfo, SubmitRequestInfo } from '../contract/ipc/jobs.ts';
import type { CliContext } from './command.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { downloadAll, followJob, isJobDone, jobLabel } from './follow.ts';
import { jobLines, jobView } from './job-view.ts';
import { localPaths } from './library-paths.ts';
import type { Session } from './session.ts';

/** The rules' refusal in the core's words (refusalInfo), as a usage error: exit 2. */
export function refusal(problems: readonly FieldProblem[]): CliError {
  return new CliError(refusalInfo(problems), EXIT.usage);
}

/** The shared rules first: a refused request never opens the core, let alone the network. */
export function checkRequest(ctx: CliContext, kind: JobKindInfo, body: Record<string, unknown>): void {
  const problems = validate({ kind, body });
  if (problems.length > 0) throw refusal(problems);
  for (const notice of notices({ kind, body })) ctx.out.note(`note: ${notice.message}`);
}

export interface FollowChoices {
  wait: boolean;
  download: boolean;
  /** --over-budget: sent even though its estimate would pass a credit cap. */
  overBudget?: boolean;
}

export async function submitJob(
  ctx: CliContext,
  kind: JobKindInfo,
  body: Record<string, unknown>,
  choices: FollowChoices,
): Promise<void> {
  checkRequest(ctx, kind, body);
  const session = await ctx.session();
  await session.requireAccount();
  const request = { kind, body, ...(choices.overBudget ? { overBudget: true } : {}) } as SubmitRequestInfo;
  const job = await session.call('jobs:submit', request).catch((error: unknown) => {
    if (error instanceof CliError && error.info.code === 'over_budget') {
      const message = `${error.info.message} Nothing was sent; add --over-budget to send it anyway.`;
      throw new CliError({ ...error.info, message }, EXIT.usage);
    }
    throw error;
  });
  if (job.jobId) ctx.out.note(`submitted ${kind} job ${job.jobId}`);
  else ctx.out.note('sent; the service has not confirmed the job yet (Atelier checks whether it arrived)');
  await finishJob(ctx, session, job, choices);
}

/** Prints the job, after following it (--wait) and downloading its outputs (--download) if asked. */
export async function finishJob(
  ctx: CliContext,
  session: Session,
  job: JobInfo,
  choices: FollowChoices,
): Promise<void> {
  const follow = choices.wait || choices.download;
  const final = follow && !isJobDone(job) ? await followJob(ctx, session, job) : job;
  let paths = new Map<string, string>();
  if (choices.download && final.state === 'succeeded') {
    const refs = final.outputs.map((output) => ({ kind: output.kind, id: output.id }));
    const downloads = await downloadAll(ctx, session, refs);
    paths = await localPaths(session, refs);
    const failed = downloads.filter((d) => d.state === 'failed');
    if (failed.length > 0) {
      const view = jobView(final, paths);
      ctx.out.result(view, () => jobLines(view));
      const reason = failed[0]?.error?.message ?? 'no reason given';
      throw new CliError({
        code: failed[0]?.error?.code ?? 'internal',
        message: `${failed.length} download(s) failed: ${reason}`,
      });
    }
  } else if (choices.download || final.state === 'succeeded') {
    // Auto-download may already have put the outputs in the library.
    paths = await localPaths(
      session,
      final.outputs.map((output) => ({ kind: output.kind, id: output.id })),
    );
  }
  const view = jobView(final, paths);
  ctx.out.result(view, () => {
    if (ctx.out.quiet) {
      if (choices.download) return view.outputs.map((output) => output.path ?? output.url);
      return follow ? view.outputs.map((output) => output.url) : [view.jobId ?? String(view.localId)];
    }
    return jobLines(view);
  });
  if (follow && final.state === 'failed') {
    throw new CliError(
      { code: 'server', message: `job ${jobLabel(final)} failed: ${final.error ?? 'the service gave no reason'}` },
      EXIT.service,
    );
  }
  if (follow && final.state === 'unknown') {
    throw new CliError(
      {
        code: 'internal',
        message: `job ${jobLabel(final)}: ${final.error ?? 'whether the service received it is unknown'}`,
      },
      EXIT.failure,
    );
  }
}
