// What the background engine needs from the service, as one narrow interface, and its adapter
// over the app's ServiceClient. Answers are re-checked here as well: a poll loop that runs for
// hours must survive any malformed record without crashing or corrupting a job.
import { AppError } from '../../contract/errors.ts';
import type {
  Job,
  JobOutput,
  JobSummary,
  JobsPage,
  Model,
  TriggerResponse,
  UploadType,
} from '../../contract/service.ts';
import type { TriggerRequest } from '../api/generation-request.ts';
import { countModelImages } from '../api/model-images.ts';
import type { ServiceClient } from '../api/service-client.ts';

export interface JobRange {
  /** RFC 3339. */
  start: string;
  end: string;
  /** Start from this page of the range (a `nextPageToken` of an earlier page) instead of the first. */
  pageToken?: string;
}

/**
 * The calls the engine makes, with an AbortSignal so stopping the engine (account switch, quit)
 * never waits on a request. Failures are AppErrors (rate_limited with retryAfterMs, server,
 * network, malformed_response, …), after the client's own short retries for reads; the engine's
 * wall-clock backoff takes over from there.
 */
export interface JobsService {
  /** Sends a checked, normalised generation request (generation-request.ts) to its endpoint. */
  submit(request: TriggerRequest): Promise<TriggerResponse>;
  /** GET /jobs pages of one range; each step of the iterator is one request. */
  jobPages(range: JobRange, signal?: AbortSignal): AsyncIterable<JobsPage>;
  getJob(jobId: string, signal?: AbortSignal): Promise<Job>;
  getModel(modelId: string, signal?: AbortSignal): Promise<Model>;
  /** GET /models/{id}/train: the success message. */
  trainModel(modelId: string): Promise<string>;
  /** A model's uploaded images of one type (GET /models/{id}/images, all pages). */
  countModelImages(modelId: string, type: UploadType, signal?: AbortSignal): Promise<number>;
}

/**
 * The engine's view of a client. `polls` answers the status checks (job pages, a job, a model):
 * pass a single-attempt client so the engine's stored, jittered backoff is their only retry
 * loop, interruptible by a stop, a suspend or going offline between rounds.
 */
export function jobsServiceFromClient(
  client: ServiceClient,
  polls: Pick<ServiceClient, 'listJobs' | 'getJob' | 'getModel'> = client,
): JobsService {
  return {
    submit: (request) => client.submit(request),
    jobPages: (range, signal) =>
      polls.listJobs({
        start: range.start,
        end: range.end,
        ...(range.pageToken ? { pageToken: range.pageToken } : {}),
        ...(signal ? { signal } : {}),
      }),
    getJob: (jobId, signal) => polls.getJob(jobId, signal ? { signal } : undefined),
    getModel: (modelId, signal) => polls.getModel(modelId, signal ? { signal } : undefined),
    trainModel: (modelId) => client.trainModel(modelId),
    countModelImages: (modelId, type, signal) => countModelImages(client, modelId, type, signal),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

export function malformed(what: string): AppError {
  return new AppError({ code: 'malformed_response', message: `The service sent an unreadable ${what}.` });
}

export function checkTrigger(value: unknown): TriggerResponse {
  if (!isRecord(value) || !nonEmpty(value['jobId'])) throw malformed('answer to the job request (no jobId)');
  return { jobId: value['jobId'], status: typeof value['status'] === 'string' ? value['status'] : 'queued' };
}

/** Items without a usable jobId/status are dropped (the job then falls back to a single GET). */
export function checkJobsPage(value: unknown): JobsPage {
  if (!isRecord(value) || !Array.isArray(value['jobs'])) throw malformed('job list');
  const jobs: JobSummary[] = [];
  for (const item of value['jobs']) {
    if (!isRecord(item) || !nonEmpty(item['jobId']) || !nonEmpty(item['status'])) continue;
    const summary: JobSummary = { jobId: item['jobId'], status: item['status'] };
    if (typeof item['createdAt'] === 'string') summary.createdAt = item['createdAt'];
    if (typeof item['updatedAt'] === 'string') summary.updatedAt = item['updatedAt'];
    if (typeof item['errorMessage'] === 'string') summary.errorMessage = item['errorMessage'];
    if (typeof item['credits'] === 'number') summary.credits = item['credits'];
    jobs.push(summary);
  }
  const token = value['nextPageToken'];
  return { jobs, nextPageToken: typeof token === 'string' ? token : '' };
}

function checkOutputs(value: unknown, what: string): JobOutput[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw malformed(`${what} list of a job`);
  return value.map((item) => {
    if (!isRecord(item) || !nonEmpty(item['id']) || typeof item['url'] !== 'string')
      throw malformed(`${what} of a job`);
    return { id: item['id'], url: item['url'] };
  });
}

export function checkJob(value: unknown, expectedId: string): Job {
  if (!isRecord(value) || !nonEmpty(value['status'])) throw malformed('job record');
  if (nonEmpty(value['jobId']) && value['jobId'] !== expectedId) throw malformed('job record (another job id)');
  const job: Job = { jobId: expectedId, status: value['status'] };
  if (typeof value['createdAt'] === 'string') job.createdAt = value['createdAt'];
  const images = checkOutputs(value['images'], 'image');
  const videos = checkOutputs(value['videos'], 'video');
  if (images) job.images = images;
  if (videos) job.videos = videos;
  if (typeof value['error'] === 'string') job.error = value['error'];
  return job;
}

export function checkModel(value: unknown, expectedId: string): Model {
  if (!isRecord(value) || !nonEmpty(value['status'])) throw malformed('model record');
  return {
    id: nonEmpty(value['id']) ? value['id'] : expectedId,
    modelType: typeof value['modelType'] === 'string' ? value['modelType'] : '',
    status: value['status'],
    createdAt: typeof value['createdAt'] === 'string' ? value['createdAt'] : '',
    updatedAt: typeof value['updatedAt'] === 'string' ? value['updatedAt'] : '',
  };
}
