// The one door from the Create panels to the job engine: submits a normalized request (after the
// short wait in which the queue can cancel it). Refusals come back as a toast with the core's reason.
import type { JobInfo, SubmitRequestInfo } from '@contract/ipc/jobs.ts';
import type { GenerationRequest } from '@contract/rules/index.ts';
import type { Result } from '@contract/errors.ts';
import { refusalText } from '../create/refusal-text.ts';
import { invoke } from '../ipc.ts';
import { jobList } from '../state/job-list.svelte.ts';
import { queue } from '../state/queue.svelte.ts';
import { toasts } from '../state/toasts.svelte.ts';

type Body = Record<string, unknown> & { modelID: string; prompt: string };

function send(request: GenerationRequest, originJobId: string | null): Promise<Result<JobInfo>> {
  return invoke('jobs:submit', { ...request, ...(originJobId ? { originJobId } : {}) } as SubmitRequestInfo);
}

/**
 * Holds the request a moment (it can be cancelled from the queue), then sends it. The queue's list
 * is not opened: the status bar's counts and the results canvas show the new job. `originJobId`: the
 * job it repeats, varies or remixes (kept with the job for the family tree, never sent).
 */
export function submitGeneration(
  request: GenerationRequest,
  originJobId: string | null = null,
): Promise<JobInfo | null> {
  const body = request.body as Partial<Body> & { imageID?: string };
  let job: JobInfo | null = null;
  return queue
    .hold({ kind: request.kind, prompt: body.prompt ?? '', modelId: body.modelID ?? body.imageID ?? '' }, async () => {
      const result = await send(request, originJobId);
      if (!result.ok) {
        toasts.error(refusalText(result.error));
        return;
      }
      jobList.upsert(result.value);
      job = result.value;
    })
    .then(() => job);
}
