// Finds results the model lists cannot show: outputs of public-family models (the service lists
// images only under the caller's own models) made outside the app. Reads the job list since the
// last scan (GET /jobs, ≤ 7-day windows), then for succeeded jobs neither the jobs engine nor the
// cache knows: GET /jobs/{id} for the output ids and GET /images/{id} for each unknown image.
// Videos are not looked up: GET /videos lists all of them. Reads only; the caller writes.
import type { JobListGate } from '../api/job-list-gate.ts';
import { AppError } from '../../contract/errors.ts';
import type { ImageRecord, Job, JobsPage } from '../../contract/service.ts';
import { isJobSuccess, isJobTerminal, JOB_LIST_RANGE_MS } from '../../contract/service.ts';
import { parseTime } from '../db/values.ts';
import { assetFieldsFromImage } from '../api/server-records.ts';
import type { AssetServerFields } from '../db/record-fields.ts';
import { eachLimited } from './each-limited.ts';

/** sync_state key of the job scan's progress (value: JobScanState). */
export const JOB_SCAN_STATE = 'sync.jobScan';
/**
 * Margin for clock skew between this machine and the service (as the jobs engine's): the list
 * runs this far past now, and each scan re-reads this much before the last one's end.
 */
export const JOB_SCAN_SKEW_MS = 15 * 60_000;

export interface JobScanState {
  /** Every job created up to this time (ms) is finished and handled. */
  until: number;
  /** Finished jobs handled after `until - JOB_SCAN_SKEW_MS`: not looked up again. */
  handled: string[];
}

/** The calls the scan makes; optional on a SyncSource (a source without them skips the scan). */
export interface JobScanSource {
  listJobs(options: { start: string; end: string; signal?: AbortSignal }): AsyncIterable<JobsPage>;
  getJob(jobID: string, call?: { signal?: AbortSignal }): Promise<Job>;
  getImage(imageID: string, call?: { signal?: AbortSignal }): Promise<ImageRecord>;
}

export interface JobScanInput {
  state: JobScanState | null;
  now: number;
  /** Job ids the jobs engine has recorded (their outputs reach the cache through it). */
  knownJobIds(ids: readonly string[]): Set<string>;
  /** Whether the cache (or this refresh's lists) already holds the image. */
  hasImage(id: string): boolean;
  signal?: AbortSignal;
  concurrency: number;
  /** Counts every request. */
  counted(): void;
  /** The account's one gate for GET /jobs (shared with the jobs engine): the list waits its turn. */
  listGate?: JobListGate;
}

export interface JobScanResult {
  images: AssetServerFields[];
  state: JobScanState;
}

const isNotFound = (error: unknown): boolean => error instanceof AppError && error.info.code === 'not_found';
const iso = (ms: number): string => new Date(ms).toISOString();

export function isJobScanSource(source: object): source is JobScanSource {
  const record = source as Partial<Record<keyof JobScanSource, unknown>>;
  return [record.listJobs, record.getJob, record.getImage].every((f) => typeof f === 'function');
}

export async function scanJobs(source: JobScanSource, input: JobScanInput): Promise<JobScanResult> {
  const { now, signal } = input;
  const call = signal ? { signal } : {};
  // One list window (the first scan, or after a long pause, sees the last week only).
  const end = now + JOB_SCAN_SKEW_MS;
  const start = Math.min(
    Math.max(end - JOB_LIST_RANGE_MS.max + 60_000, (input.state?.until ?? 0) - JOB_SCAN_SKEW_MS),
    now,
  );
  const handledBefore = new Set(input.state?.handled ?? []);

  const listed: { jobId: string; status: string; createdAt: number }[] = [];
  // All pages: a cut-short list would leave jobs behind `until` unseen (the client stops a looping token).
  // Never within the advised interval of another read of the job list (the jobs engine's included).
  const turn = input.listGate ? await input.listGate.take(signal) : null;
  try {
    for await (const page of source.listJobs({ start: iso(start), end: iso(end), ...call })) {
      turn?.answered();
      input.counted();
      for (const job of page.jobs) listed.push({ ...job, createdAt: parseTime(job.createdAt) ?? now });
    }
  } finally {
    // Settles the turn whatever happened (after an answer this only lets the gate go).
    turn?.failed();
  }

  const unfinished = listed.filter((j) => !isJobTerminal(j.status));
  const until = Math.min(now, ...unfinished.map((j) => j.createdAt - 1));
  const engineJobs = input.knownJobIds(listed.map((j) => j.jobId));
  const fresh = listed.filter((j) => isJobSuccess(j.status) && !handledBefore.has(j.jobId) && !engineJobs.has(j.jobId));

  const images = new Map<string, AssetServerFields>();
  await eachLimited(fresh, input.concurrency, async (summary) => {
    input.counted();
    const job = await readOrNull(() => source.getJob(summary.jobId, call));
    for (const output of job?.images ?? []) {
      if (images.has(output.id) || input.hasImage(output.id)) continue;
      input.counted();
      const record = await readOrNull(() => source.getImage(output.id, call));
      if (record) images.set(record.id, assetFieldsFromImage(record));
    }
  });

  const keepFrom = until - JOB_SCAN_SKEW_MS;
  const handled = listed.filter((j) => isJobTerminal(j.status) && j.createdAt > keepFrom).map((j) => j.jobId);
  return { images: [...images.values()], state: { until, handled } };
}

/** A job or image deleted between the list and the look-up is simply not there. */
async function readOrNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
