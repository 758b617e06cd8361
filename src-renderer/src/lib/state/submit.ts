// The one door from the Create panels to the job engine: submits a normalized request and shows the job
// in the queue dock at once. Refusals come back as a toast with the core's reason.
import type { JobInfo } from '@contract/ipc/jobs.ts';
import type { GenerationRequest } from '@contract/rules/index.ts';
import type { Result } from '@contract/errors.ts';
import { invoke } from '../ipc.ts';
import { queue } from './queue.svelte.ts';
import { toasts } from './toasts.svelte.ts';

type Body = Record<string, unknown> & { modelID: string; prompt: string };

function send(request: GenerationRequest): Promise<Result<JobInfo>> {
  const body = request.body as Body;
  switch (request.kind) {
    case 'image':
      return invoke('jobs:submit-image', { body });
    case 'video':
      return invoke('jobs:submit-video', { body });
    case 'upscale':
      return invoke('jobs:submit-upscale', { body: request.body as { imageID: string } });
  }
}

export async function submitGeneration(request: GenerationRequest): Promise<JobInfo | null> {
  const result = await send(request);
  if (!result.ok) {
    const fields = result.error.fields?.map((f) => f.message).join('; ');
    toasts.error(fields ? `${result.error.message} ${fields}` : result.error.message);
    return null;
  }
  queue.upsert(result.value);
  queue.dockOpen = true;
  return result.value;
}
