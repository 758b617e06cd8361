// The one row type of the jobs table (the outbox row, its poll schedule and outcome) and the
// patch the engine writes to it.
import { sql, type SqlFragment } from '../sql.ts';

export type JobKind = 'image' | 'upscale' | 'video' | 'training';
export type JobState = 'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'unknown';

export interface JobRow {
  local_id: number;
  job_id: string | null;
  kind: JobKind;
  model_id: string | null;
  request: string;
  state: JobState;
  service_status: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  submitted_at: number | null;
  next_poll_at: number | null;
  attempts: number;
  last_polled_at: number | null;
  finished_at: number | null;
  notified_at: number | null;
  outputs: string | null;
  /** What the job cost, from the service's job list; null until known. */
  credits: number | null;
  /** The service's own creation time of the job (what its job list filters on), once seen. */
  service_created_at: number | null;
  /** The local id of the job sent again in this one's place ("Try again"). */
  resubmitted_as: number | null;
  /** When the latest POST of this row started (its job, if any, was created in that POST's window). */
  sent_at: number | null;
  /** How many times the request was POSTed. */
  sends: number;
  /** A resend the row waits for: its last POST certainly created nothing (reconcile leaves it alone). */
  resend_at: number | null;
  /** 1: the user said not to send it again on its own. */
  resend_cancelled: number;
  /** 1: a job found on the service that no request of this app could be tied to for sure (request {}). */
  unattributed: number;
  /** For an unattributed job: JSON array of the local ids of the rows that may have sent it. */
  candidate_rows: string | null;
  /** The service job this one repeats, varies or remixes (schema 18). */
  origin_job_id: string | null;
}

export interface NewJob {
  kind: JobKind;
  modelId: string | null;
  /** The request body as it will be sent (JSON-serialisable; never holds the API key). */
  request: unknown;
  /** The service job this one repeats, varies or remixes ("Generate again", "Vary", Remix); schema 18. */
  originJobId?: string | null;
  now: number;
}

/** Fields the engine changes; undefined leaves a column alone, null clears it. */
export interface JobPatch {
  jobId?: string | null;
  state?: JobState;
  serviceStatus?: string | null;
  error?: string | null;
  submittedAt?: number | null;
  nextPollAt?: number | null;
  attempts?: number;
  lastPolledAt?: number | null;
  finishedAt?: number | null;
  notifiedAt?: number | null;
  /** Stored as JSON (e.g. the job's `images`/`videos` arrays). */
  outputs?: unknown;
  credits?: number | null;
  serviceCreatedAt?: number | null;
  resubmittedAs?: number | null;
  sentAt?: number | null;
  sends?: number;
  resendAt?: number | null;
  resendCancelled?: number;
  /** Stored as JSON. */
  candidateRows?: number[] | null;
}

export const JOB_COLUMNS = sql`local_id, job_id, kind, model_id, request, state, service_status, error, created_at,
  updated_at, submitted_at, next_poll_at, attempts, last_polled_at, finished_at, notified_at, outputs, credits,
  service_created_at, resubmitted_as, sent_at, sends, resend_at, resend_cancelled, unattributed, candidate_rows,
  origin_job_id`;

export const JOB_PATCH_COLUMNS: Record<keyof JobPatch | 'updatedAt', SqlFragment> = {
  jobId: sql`job_id`,
  state: sql`state`,
  serviceStatus: sql`service_status`,
  error: sql`error`,
  submittedAt: sql`submitted_at`,
  nextPollAt: sql`next_poll_at`,
  attempts: sql`attempts`,
  lastPolledAt: sql`last_polled_at`,
  finishedAt: sql`finished_at`,
  notifiedAt: sql`notified_at`,
  outputs: sql`outputs`,
  credits: sql`credits`,
  serviceCreatedAt: sql`service_created_at`,
  resubmittedAs: sql`resubmitted_as`,
  sentAt: sql`sent_at`,
  sends: sql`sends`,
  resendAt: sql`resend_at`,
  resendCancelled: sql`resend_cancelled`,
  candidateRows: sql`candidate_rows`,
  updatedAt: sql`updated_at`,
};
