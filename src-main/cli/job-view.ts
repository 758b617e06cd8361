// How a job looks on the command line: one stable JSON shape (jobId, final status, outputs with
// their local paths) and a few human lines.
import { modelName } from '../contract/names.ts';
import type { JobInfo } from '../contract/ipc/jobs.ts';
import { fields } from './output.ts';

export interface JobOutputView {
  kind: 'image' | 'video';
  id: string;
  url: string;
  /** Absolute path in the library once downloaded, else null. */
  path: string | null;
}

export interface JobView {
  jobId: string | null;
  localId: number;
  kind: JobInfo['kind'];
  model: string | null;
  /** Atelier's state: submitting, queued, running, succeeded, failed, unknown. */
  state: JobInfo['state'];
  /** The service's own last status (queued, running, success, failed, …). */
  status: string | null;
  error: string | null;
  prompt: string | null;
  createdAt: string;
  finishedAt: string | null;
  outputs: JobOutputView[];
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function jobView(job: JobInfo, paths: ReadonlyMap<string, string> = new Map()): JobView {
  return {
    jobId: job.jobId,
    localId: job.localId,
    kind: job.kind,
    model: job.modelId,
    state: job.state,
    status: job.serviceStatus,
    error: job.error,
    prompt: job.prompt,
    createdAt: iso(job.createdAt) ?? '',
    finishedAt: iso(job.finishedAt),
    outputs: job.outputs.map((output) => ({
      kind: output.kind,
      id: output.id,
      url: output.url,
      path: paths.get(`${output.kind}:${output.id}`) ?? null,
    })),
  };
}

export function jobLines(view: JobView): string[] {
  const { outputs, ...rest } = view;
  const lines = fields({
    jobId: rest.jobId ?? '(not confirmed by the service yet)',
    localId: rest.localId,
    kind: rest.kind,
    model: rest.model
      ? `${modelName(rest.model)}${modelName(rest.model) === rest.model ? '' : ` (${rest.model})`}`
      : undefined,
    state: rest.status && rest.status !== rest.state ? `${rest.state} (${rest.status})` : rest.state,
    error: rest.error ?? undefined,
    prompt: rest.prompt ?? undefined,
    createdAt: rest.createdAt,
    finishedAt: rest.finishedAt ?? undefined,
  });
  if (outputs.length > 0) {
    lines.push('outputs:');
    for (const output of outputs) lines.push(`  ${output.kind} ${output.id}  ${output.path ?? output.url}`);
  }
  return lines;
}
