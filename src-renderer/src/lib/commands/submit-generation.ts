// The one door from the Create panels to the job engine: submits a normalized request (after the
// short wait in which the queue can cancel it). Refusals come back as a toast with the core's reason;
// a request over a credit cap waits for the user's "Generate anyway" (state/budget.svelte.ts).
import type { JobInfo, SubmitRequestInfo } from '@contract/ipc/jobs.ts';
import type { GenerationRequest } from '@contract/rules/index.ts';
import type { Result } from '@contract/errors.ts';
import type { BudgetCheckInfo } from '@contract/ipc/budget.ts';
import { budget } from '../state/budget.svelte.ts';
import { refusalText } from '../create/refusal-text.ts';
import { invoke } from '../ipc.ts';
import { jobList } from '../state/job-list.svelte.ts';
import { queue } from '../state/queue.svelte.ts';
import { toasts } from '../state/toasts.svelte.ts';

type Body = Record<string, unknown> & { modelID: string; prompt: string };

interface SendOptions {
  originJobId?: string | null | undefined;
  overBudget?: boolean;
}

function send(request: GenerationRequest, { originJobId, overBudget }: SendOptions): Promise<Result<JobInfo>> {
  return invoke('jobs:submit', {
    ...request,
    ...(originJobId ? { originJobId } : {}),
    ...(overBudget ? { overBudget: true } : {}),
  } as SubmitRequestInfo);
}

/** Sent at once, over the cap: the user just said "Generate anyway" to the core's own refusal. */
async function sendOverBudget(request: GenerationRequest, originJobId: string | null | undefined): Promise<void> {
  const result = await send(request, { originJobId, overBudget: true });
  if (!result.ok) toasts.error(refusalText(result.error));
  else jobList.upsert(result.value);
}

export interface SubmitOptions {
  /** The user already chose to go over a credit cap for this request. */
  overBudget?: boolean;
  /** The core's verdict on this request's estimate (the Create form's, from its Generate area). */
  checked?: BudgetCheckInfo | undefined;
  /** The job it repeats, varies or remixes (kept with the job for the family tree, never sent). */
  originJobId?: string | null | undefined;
}

/**
 * Holds the request a moment (it can be cancelled from the queue), then sends it. The queue's list
 * is not opened: the status bar's counts and the results canvas show the new job.
 */
export function submitGeneration(request: GenerationRequest, options: SubmitOptions = {}): Promise<JobInfo | null> {
  const overBudget = options.overBudget === true;
  const originJobId = options.originJobId;
  // Over a cap: nothing is held or sent until the user says "Generate anyway".
  if (!overBudget && options.checked && !options.checked.ok) {
    const asked = budget.askOverride(options.checked.reason, () => {
      void submitGeneration(request, { overBudget: true, originJobId });
    });
    if (asked) return Promise.resolve(null);
  }
  const body = request.body as Partial<Body> & { imageID?: string };
  let job: JobInfo | null = null;
  return queue
    .hold({ kind: request.kind, prompt: body.prompt ?? '', modelId: body.modelID ?? body.imageID ?? '' }, async () => {
      const result = await send(request, { originJobId, overBudget });
      if (!result.ok) {
        // Another job took the room meanwhile: the same question, with the core's numbers.
        const reason = result.error.message;
        if (
          result.error.code === 'over_budget' &&
          budget.askOverride(reason, () => void sendOverBudget(request, originJobId))
        )
          return;
        toasts.error(refusalText(result.error));
        return;
      }
      jobList.upsert(result.value);
      job = result.value;
    })
    .then(() => job);
}
