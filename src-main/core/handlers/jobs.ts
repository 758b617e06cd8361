// Handlers of the jobs:* channels: the account's jobs engine does the work (core/jobs).
import type { CostEstimateInfo, JobHistoryPageInfo, JobInfo, SubmitRequestInfo } from '../../contract/ipc/jobs.ts';
import { readyJobs, type AccountServices } from '../account-services.ts';

export function jobsHandlers(host: AccountServices) {
  const engine = () => readyJobs(host);
  return {
    'jobs:submit': async (request: SubmitRequestInfo): Promise<JobInfo> => (await engine()).submit(request),
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
    }): Promise<JobHistoryPageInfo> => (await engine()).history(query),
  };
}
