// Handlers of the jobs:* channels: the account's jobs engine does the work (core/jobs).
import type {
  CostEstimateInfo,
  JobHistoryPageInfo,
  JobInfo,
  JobSummaryInfo,
  SubmitRequestInfo,
} from '../../contract/ipc/jobs.ts';
import { AppError } from '../../contract/errors.ts';
import { validate } from '../../contract/rules/index.ts';
import { readyJobs, type AccountServices } from '../account-services.ts';
import type { BudgetGate } from '../budgets/budget-gate.ts';
import { assetToInfo, type MediaUrlFor } from './to-info.ts';
import type { JobsEngine } from '../jobs/engine.ts';

/**
 * A service history row with what this app knows of it: the local job's prompt and model, else
 * the library's record of its output (found by job id), and that output for its thumbnail.
 */
function withWhatIsKnown(
  job: JobSummaryInfo,
  engine: JobsEngine,
  host: AccountServices,
  mediaUrlFor: MediaUrlFor,
): JobSummaryInfo {
  let local: JobInfo | null = null;
  try {
    local = job.localId !== null ? engine.get(job.localId) : null;
  } catch {
    // The row went away meanwhile: the library may still know the job.
  }
  const row = host.cache().assets.listByJob(job.jobId)[0];
  const output = row ? assetToInfo(row, mediaUrlFor) : null;
  return {
    ...job,
    kind: local?.kind ?? (output ? (output.sourceAssetId ? 'upscale' : output.kind) : null),
    prompt: local?.prompt ?? output?.prompt ?? null,
    modelId: local?.modelId ?? output?.modelId ?? null,
    sourceImageId: local?.sourceImageId ?? output?.sourceAssetId ?? null,
    output,
  };
}

/**
 * A request the rules accept whose estimate would pass a credit cap is refused with the policy's
 * reason ('over_budget'), unless the user chose to go over it (`overBudget: true`). One the rules
 * refuse is left to the outbox, which says what is wrong with it.
 */
function refuseOverBudget({ overBudget, ...request }: SubmitRequestInfo, budget: BudgetGate): SubmitRequestInfo {
  if (overBudget === true || validate(request).length > 0) return request;
  const verdict = budget.check(budget.estimate(request.kind, request.body));
  if (!verdict.ok) throw new AppError({ code: 'over_budget', message: verdict.reason });
  return request;
}

export function jobsHandlers(host: AccountServices, mediaUrlFor: MediaUrlFor, budget: () => BudgetGate) {
  const engine = () => readyJobs(host);
  return {
    'jobs:submit': async (request: SubmitRequestInfo): Promise<JobInfo> => {
      const jobs = await engine();
      return jobs.submit(refuseOverBudget(request, budget()));
    },
    'jobs:list': async (args: { limit?: number | undefined } | undefined): Promise<JobInfo[]> =>
      (await engine()).list(args?.limit),
    'jobs:get': async ({ localId }: { localId: number }): Promise<JobInfo> => (await engine()).get(localId),
    'jobs:resubmit': async ({ localId }: { localId: number }): Promise<JobInfo> => (await engine()).resubmit(localId),
    'jobs:attribute': async ({
      jobLocalId,
      rowLocalId,
    }: {
      jobLocalId: number;
      rowLocalId: number;
    }): Promise<JobInfo> => (await engine()).attribute(jobLocalId, rowLocalId),
    'jobs:cancel-resend': async ({ localId }: { localId: number }): Promise<JobInfo> =>
      (await engine()).cancelResend(localId),
    'jobs:check-now': async (): Promise<null> => {
      await (await engine()).checkNow();
      return null;
    },
    'jobs:estimate': async ({
      kind,
      body,
    }: {
      kind: 'image' | 'video';
      body: Record<string, unknown>;
    }): Promise<CostEstimateInfo> => (await engine()).estimate(kind, body),
    'jobs:history': async (query: {
      start: string;
      end: string;
      pageToken?: string | undefined;
    }): Promise<JobHistoryPageInfo> => {
      const jobs = await engine();
      const page = await jobs.history(query);
      return { ...page, jobs: page.jobs.map((job) => withWhatIsKnown(job, jobs, host, mediaUrlFor)) };
    },
  };
}
