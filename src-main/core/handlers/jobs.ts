// Handlers of the jobs:* channels: the account's jobs engine does the work (core/jobs).
import type { CostEstimateInfo, JobHistoryPageInfo, JobInfo } from '../../contract/ipc/jobs.ts';
import type { AccountServices } from '../account-services.ts';

export function jobsHandlers(host: Pick<AccountServices, 'jobs'>) {
  return {
    'jobs:submit-image': ({ body }: { body: Record<string, unknown> }): Promise<JobInfo> =>
      host.jobs().submit('image', body),
    'jobs:submit-video': ({ body }: { body: Record<string, unknown> }): Promise<JobInfo> =>
      host.jobs().submit('video', body),
    'jobs:submit-upscale': ({ body }: { body: { imageID: string } }): Promise<JobInfo> =>
      host.jobs().submit('upscale', body),
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
