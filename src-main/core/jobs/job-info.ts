// The one place a jobs row becomes the renderer's JobInfo, and the small vocabulary shared by
// the engine's parts: poll interval per kind, the service status → local state mapping.
import type { JobInfo, JobKindInfo, JobOutputInfo, JobStateInfo, PossibleJobInfo } from '../../contract/ipc/jobs.ts';
import { isJobSuccess, isJobTerminal, POLL_INTERVALS_MS } from '../../contract/service.ts';
import { parseJson } from '../db/values.ts';
import type { JobKind, JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';

export function pollIntervalOf(kind: JobKind): number {
  switch (kind) {
    case 'image':
      return POLL_INTERVALS_MS.imageJob;
    case 'upscale':
      return POLL_INTERVALS_MS.upscaleJob;
    case 'video':
      return POLL_INTERVALS_MS.videoJob;
    case 'training':
      return POLL_INTERVALS_MS.training;
  }
}

/**
 * The interval for a job that has been in flight since `since`: the spec's interval at first; a
 * job still running after half an hour is checked every 30 s, after two hours every 2 minutes
 * (it is followed to its end all the same, just without spending requests on it).
 */
export function pollIntervalFor(kind: JobKind, since: number, now: number): number {
  const age = now - since;
  const base = pollIntervalOf(kind);
  if (age > 2 * 60 * 60_000) return Math.max(base, 2 * 60_000);
  if (age > 30 * 60_000) return Math.max(base, 30_000);
  return base;
}

/** A non-terminal service status as a local state (created counts as queued). */
export function activeStateOf(status: string): 'queued' | 'running' {
  return status.trim().toLowerCase() === 'running' ? 'running' : 'queued';
}

export type StatusOutcome = { terminal: false; state: 'queued' | 'running' } | { terminal: true; success: boolean };

export function outcomeOf(status: string): StatusOutcome {
  if (!isJobTerminal(status)) return { terminal: false, state: activeStateOf(status) };
  return { terminal: true, success: isJobSuccess(status) };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function requestOf(row: Pick<JobRow, 'request'>): Record<string, unknown> {
  const parsed = parseJson(row.request);
  return isRecord(parsed) ? parsed : {};
}

export function outputsOf(row: Pick<JobRow, 'outputs'>): JobOutputInfo[] {
  const parsed = parseJson(row.outputs);
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (item): item is JobOutputInfo =>
      isRecord(item) && typeof item['id'] === 'string' && typeof item['url'] === 'string',
  );
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The local ids of the rows an unattributed job may be from. */
export function candidateRowsOf(row: Pick<JobRow, 'candidate_rows'>): number[] {
  const parsed = parseJson(row.candidate_rows);
  return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
}

function possibleJobOf(job: JobRow): PossibleJobInfo | null {
  if (job.job_id === null) return null;
  const outputs = outputsOf(job);
  return {
    localId: job.local_id,
    jobId: job.job_id,
    createdAt: job.service_created_at ?? job.created_at,
    state: job.state,
    outputs: outputs.length > 0 ? { kind: outputs[0]!.kind, count: outputs.length } : null,
  };
}

/** toJobInfo with what needs other rows: the jobs found on the service a "may have been sent" row may own. */
export function jobInfoOf(store: JobsRepo, row: JobRow): JobInfo {
  return jobInfosOf(store, [row])[0]!;
}

export function jobInfosOf(store: JobsRepo, rows: readonly JobRow[]): JobInfo[] {
  const maybe = rows.filter((row) => row.state === 'unknown' && row.job_id === null).map((row) => row.local_id);
  const jobs = store.unattributedNaming(maybe);
  return rows.map((row) => {
    const info = toJobInfo(row);
    if (!maybe.includes(row.local_id)) return info;
    const possible = jobs.filter((job) => candidateRowsOf(job).includes(row.local_id));
    return { ...info, possibleJobs: possible.flatMap((job) => possibleJobOf(job) ?? []) };
  });
}

export function toJobInfo(row: JobRow): JobInfo {
  const request = requestOf(row);
  const kind: JobKindInfo = row.kind === 'training' ? 'image' : row.kind;
  const state: JobStateInfo = row.state;
  return {
    localId: row.local_id,
    jobId: row.job_id,
    kind,
    modelId: row.model_id,
    state,
    serviceStatus: row.service_status,
    error: row.error,
    request,
    prompt: textOf(request['prompt']),
    sourceImageId: row.kind === 'upscale' ? textOf(request['imageID']) : null,
    createdAt: row.created_at,
    submittedAt: row.submitted_at,
    finishedAt: row.finished_at,
    lastPolledAt: row.last_polled_at,
    nextPollAt: row.next_poll_at,
    outputs: outputsOf(row),
    credits: row.credits,
    canResubmit:
      (row.state === 'failed' || row.state === 'unknown') && row.resubmitted_as === null && row.unattributed === 0,
    resubmittedAs: row.resubmitted_as,
    unattributed: row.unattributed === 1,
    mayBeFrom: row.unattributed === 1 ? candidateRowsOf(row) : [],
    possibleJobs: [],
    resendAt: row.state === 'submitting' ? row.resend_at : null,
    canCancelResend: row.state === 'submitting' && row.job_id === null && row.resend_cancelled === 0,
  };
}
