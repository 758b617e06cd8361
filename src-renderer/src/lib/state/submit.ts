// The one door from the Create panels to the job engine. The core's job-submission channel is not in the
// contract yet; until it is, this tells the user plainly instead of pretending to start a job.
import type { GenerationRequest } from '@contract/rules/index.ts';
import { toasts } from './toasts.svelte.ts';

export async function submitGeneration(request: GenerationRequest): Promise<boolean> {
  void request;
  toasts.show(
    'warning',
    'Generating is not available yet: this build cannot send jobs to the service. Your settings are kept.',
  );
  return false;
}
