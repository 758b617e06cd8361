// Handlers of the batches:* channels: the text is planned here with contract/batch (the same code
// the CLI and the renderer read), estimated from the account's own history, and started on the
// account's jobs engine (its batch runner sends through the outbox).
import type { BatchPlanResult } from '../../contract/batch/batch-plan.ts';
import { AppError } from '../../contract/errors.ts';
import type { BatchDetailInfo, BatchInfo, BatchPlanInfo, BatchSourceInfo } from '../../contract/ipc/batches.ts';
import { readyJobs, type AccountServices } from '../account-services.ts';
import type { JobsEngine } from '../jobs/engine.ts';

async function planInfo(engine: JobsEngine, plan: BatchPlanResult): Promise<BatchPlanInfo> {
  const estimates = await engine.estimateMany(plan.jobs);
  let totalCredits = 0;
  let unknownEstimates = 0;
  const jobs = plan.jobs.map((job, i) => {
    const estimate = estimates[i]!;
    if (estimate.credits === null) unknownEstimates += 1;
    else totalCredits += estimate.credits;
    return { ...job, estimate };
  });
  return {
    jobs,
    refused: plan.refused.map((r) => ({
      row: r.row,
      expansion: r.expansion,
      of: r.of,
      message: r.message,
      fields: r.problems.map((p) => ({ field: p.field, message: p.message })),
    })),
    totalCredits: Math.round(totalCredits * 100) / 100,
    unknownEstimates,
  };
}

const nameOf = (source: BatchSourceInfo & { name?: string | undefined }, plan: BatchPlanResult): string => {
  const given = source.name?.trim();
  if (given) return given;
  const first = plan.jobs[0]?.body['prompt'];
  const count = plan.jobs.length;
  return typeof first === 'string' && first !== ''
    ? `${first.slice(0, 60)}${count > 1 ? ` (+${count - 1})` : ''}`
    : `Batch of ${count}`;
};

/** Loaded at the first plan: a start never pays for the CSV reader. */
const planOf = async (source: BatchSourceInfo): Promise<BatchPlanResult> =>
  (await import('./batch-planning.ts')).planOf(source);

export function batchesHandlers(host: AccountServices) {
  const engine = () => readyJobs(host);
  return {
    'batches:plan': async (source: BatchSourceInfo): Promise<BatchPlanInfo> =>
      planInfo(await engine(), await planOf(source)),
    'batches:start': async (
      source: BatchSourceInfo & { name?: string | undefined; overBudget?: boolean | undefined },
    ): Promise<BatchDetailInfo> => {
      const jobs = await engine();
      const plan = await planOf(source);
      if (plan.jobs.length === 0) {
        throw new AppError({
          code: 'invalid_argument',
          message:
            plan.refused.length > 0
              ? `Nothing to send: every row was refused (${plan.refused[0]!.message}).`
              : 'Nothing to send: the batch has no rows.',
          field: 'text',
        });
      }
      const info = await planInfo(jobs, plan);
      // Planned items in row order: the valid ones to send, the refused ones kept with their reason.
      const items = [
        ...info.jobs.map((job) => ({
          row: job.row,
          expansion: job.of > 1 ? job.expansion : null,
          of: job.of,
          kind: job.kind,
          request: job.body,
          state: 'pending' as const,
          problem: null,
          estimate: job.estimate.credits,
        })),
        ...info.refused.map((r) => ({
          row: r.row,
          expansion: r.expansion,
          of: r.of,
          kind: 'image' as const,
          request: {},
          state: 'refused' as const,
          problem: r.message,
          estimate: null,
        })),
      ].sort((a, b) => a.row - b.row || (a.expansion ?? 0) - (b.expansion ?? 0));
      return jobs.batches.create(nameOf(source, plan), items, { overBudget: source.overBudget === true });
    },
    'batches:list': async (): Promise<BatchInfo[]> => (await engine()).batches.list(),
    'batches:get': async ({ id }: { id: number }): Promise<BatchDetailInfo> => (await engine()).batches.get(id),
    'batches:pause': async ({ id }: { id: number }): Promise<BatchInfo> => (await engine()).batches.pause(id),
    'batches:resume': async ({
      id,
      overBudget,
    }: {
      id: number;
      overBudget?: boolean | undefined;
    }): Promise<BatchInfo> => (await engine()).batches.resume(id, { overBudget: overBudget === true }),
    'batches:cancel': async ({ id }: { id: number }): Promise<BatchInfo> => (await engine()).batches.cancel(id),
  };
}
