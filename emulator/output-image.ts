// The image record a finished generation leaves behind: rendered at the planned size with the
// prompt and seed drawn on it, its data carrying what the service reports (job, prompt, preset,
// seed, size, format, the request). The generation route and the demo library both make them.
import type { ImageOutputPlan } from './output-size.ts';
import type { ImageRecord } from './records.ts';

export interface OutputImageInput {
  id: string;
  ownerId: string;
  modelID: string;
  job: { id: string; finishAt: number };
  plan: ImageOutputPlan;
  /** What is drawn on the picture (the prompt, or a stand-in for a preset or reference variation). */
  renderPrompt: string;
  seed: number;
  request: Record<string, unknown>;
  /** Extra fields of `data` (the demo's organising hints). */
  extra?: Record<string, unknown>;
}

export function outputImage(input: OutputImageInput): ImageRecord {
  const { id, ownerId, modelID, job, plan, seed, request } = input;
  return {
    id,
    ownerId,
    modelID,
    type: 'output',
    createdAt: job.finishAt,
    updatedAt: job.finishAt,
    jobId: job.id,
    source: {
      kind: 'render',
      format: plan.format,
      width: plan.width,
      height: plan.height,
      prompt: input.renderPrompt,
      seed,
      caption: `${modelID} · ${plan.width}×${plan.height} · seed ${seed}`,
    },
    data: {
      jobId: job.id,
      prompt: request['prompt'] ?? '',
      preset: request['preset'] ?? '',
      seed,
      width: plan.width,
      height: plan.height,
      format: plan.format,
      request,
      ...input.extra,
    },
  };
}
