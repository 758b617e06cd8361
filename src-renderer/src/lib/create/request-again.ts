// "Generate again" and "Vary seed" on a result: the job's own request sent once more, or with a fresh
// seed where the model takes one (trained models at the top, video models in their option group).
import type { JobInfo } from '@contract/ipc/jobs.ts';
import { isTrainedModelId, type GenerationRequest } from '@contract/rules/index.ts';
import { videoRules } from '@contract/rules/video-models.ts';
import { randomSeed } from './seed.svelte.ts';

/** A plain copy (the request is JSON; the queue's rows may be reactive proxies, which structuredClone refuses). */
const copyOf = (request: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(request)) as Record<string, unknown>;

/** Where the request's model keeps its seed, or null when it takes none. */
function seedPlace(kind: JobInfo['kind'], body: Record<string, unknown>): { group: string | null } | null {
  const modelID = body['modelID'];
  if (kind === 'image' && isTrainedModelId(modelID)) return { group: null };
  const rules = kind === 'video' ? videoRules(modelID) : undefined;
  return rules?.options['seed'] ? { group: rules.optionGroup } : null;
}

export const takesSeed = (job: Pick<JobInfo, 'kind' | 'request'>): boolean =>
  job.kind !== 'upscale' && seedPlace(job.kind, job.request) !== null;

/** The job's request as it was sent. */
export function sameRequest(job: Pick<JobInfo, 'kind' | 'request'>): GenerationRequest {
  return { kind: job.kind, body: copyOf(job.request) };
}

/** The job's request with a new seed (the same request when the model takes no seed). */
export function variedRequest(job: Pick<JobInfo, 'kind' | 'request'>, seed = randomSeed()): GenerationRequest {
  const body = copyOf(job.request);
  const place = job.kind === 'upscale' ? null : seedPlace(job.kind, body);
  if (place?.group === null) body['seed'] = seed;
  else if (place) {
    const options = (body['options'] ?? {}) as Record<string, Record<string, unknown>>;
    body['options'] = { ...options, [place.group]: { ...options[place.group], seed } };
  }
  return { kind: job.kind, body };
}
