// Handlers of the jobs:* channels: the account's jobs engine does the work (core/jobs).
import type { CostEstimateInfo, JobHistoryPageInfo, JobInfo, SubmitRequestInfo } from '../../contract/ipc/jobs.ts';
import type { JobsEngineHost } from '../jobs/engine-host.ts';

export function jobsHandlers(host: JobsEngineHost) {
  return {
    'jobs:submit': (request: SubmitRequestInfo): Promise<JobInfo> => host.jobs().submit(request),
    'jobs:list': (args: { limit?: number | undefined } | undefined): JobInfo[] => host.jobs().list(args?.limit),
    'jobs:get': ({ localId }: { localId: number }): JobInfo => host.jobs().get(localId),
    'jobs:resubmit': ({ localId }: { localId: number }): Promise<JobInfo> => host.jobs().resubmit(localId),
    'jobs:check-now': async (): Promise<null> => {
      await host.jobs().checkNow();
      return null;
    },
    'jobs:estimate': ({
      kind,
      body,
    }: {
      kind: 'image' | 'video';
      body: Record<string, unknown>;
    }): Promise<CostEstimateInfo> => host.jobs().estimate(kind, body),
    'jobs:history': (query: {
      start: string;
      end: string;
      pageToken?: string | undefined;
    }): Promise<JobHistoryPageInfo> => host.jobs().history(query),
  };
}
