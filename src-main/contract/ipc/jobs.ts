// Channels of generation jobs: submit (one request union: image, upscale, video), the local job list, resubmit, and
// the service's own job history. Bodies are checked here for shape; the per-model rules of
// contract/rules decide, in the core, whether the service would accept them.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import type { AssetInfo } from './assets.ts';

export type JobKindInfo = 'image' | 'upscale' | 'video';

/**
 * submitting: written locally, the request is on its way (or, after a crash, being checked), or it
 *   waits to be sent again (`resendAt`: the service clearly did not take the last try);
 * unknown: the app cannot tell whether the service got it (never shown as done; resubmit offered);
 *   with `possibleJobs` it may have been sent: one of those jobs found on the service may be its.
 */
export type JobStateInfo = 'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'unknown';

export interface JobOutputInfo {
  kind: 'image' | 'video';
  /** The service's image or video id. */
  id: string;
  url: string;
  /** The library row (assets.seq) it was saved as. */
  assetSeq: number | null;
  /** A streaming playlist: plays online, copied offline by the library. */
  hls: boolean;
}

export interface JobInfo {
  /** Stable local id: exists before the service answered, so it names the job everywhere. */
  localId: number;
  /** The service's job id; null until the service answered the request. */
  jobId: string | null;
  kind: JobKindInfo;
  modelId: string | null;
  state: JobStateInfo;
  /** The last raw status from the service (created, queued, running, success, …). */
  serviceStatus: string | null;
  /** Why it failed, or why its state is unknown. */
  error: string | null;
  /** The request as sent (what remix and resubmit reuse). Never holds the API key. */
  request: Record<string, unknown>;
  prompt: string | null;
  /** The image an upscale was made from. */
  sourceImageId: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  submittedAt: number | null;
  finishedAt: number | null;
  lastPolledAt: number | null;
  nextPollAt: number | null;
  outputs: JobOutputInfo[];
  /** What the job cost, once the service's job list has said; null until then. */
  credits: number | null;
  /** Failed and unknown jobs may be sent again (as a new job), once. */
  canResubmit: boolean;
  /** The local id of the job that replaced this one. */
  resubmittedAs: number | null;
  /**
   * A job found on the service that Atelier could not tie to one of its requests for sure: no
   * request, prompt or settings (its outputs are in the library under that label), followed to its end.
   */
  unattributed: boolean;
  /** For an unattributed job: the local ids of the requests that may have created it. */
  mayBeFrom: number[];
  /** For a request that may have been sent: the unattributed jobs that may be its own ("This is it"). */
  possibleJobs: PossibleJobInfo[];
  /** When a request the service clearly did not take is sent again on its own (epoch ms); null = not waiting. */
  resendAt: number | null;
  /** A waiting resend (or the resend of a request whose fate is being checked) can be cancelled. */
  canCancelResend: boolean;
}

/** A job found on the service that may be a request's own (see JobInfo.possibleJobs). */
export interface PossibleJobInfo {
  /** The unattributed job's local id (what jobs:attribute takes as jobLocalId). */
  localId: number;
  jobId: string;
  /** The service's creation time (epoch ms). */
  createdAt: number;
  state: JobStateInfo;
  /** What it made, once finished: how many images or videos. */
  outputs: { kind: 'image' | 'video'; count: number } | null;
}

export interface JobSummaryInfo {
  jobId: string;
  status: string;
  createdAt: string | null;
  updatedAt: string | null;
  credits: number | null;
  errorMessage: string | null;
  /** The local job following it, when this app submitted or adopted it. */
  localId: number | null;
  /** What the local job or the library knows of it (null when neither does): kind, prompt, model, an upscale's source. */
  kind: JobKindInfo | null;
  prompt: string | null;
  modelId: string | null;
  sourceImageId: string | null;
  /** Its first output in the library (thumbnail, opens in the viewer), or null. */
  output: AssetInfo | null;
}

/** What the next job would probably cost, from this account's recent jobs with the same model and settings. */
export interface CostEstimateInfo {
  /** The average of those jobs' credits; null when there is no such job yet. */
  credits: number | null;
  /** How many jobs the average is based on. */
  basedOn: number;
  low: number | null;
  high: number | null;
}

export interface JobHistoryPageInfo {
  jobs: JobSummaryInfo[];
  /** Pass back as pageToken for the next page; null on the last page. */
  nextPageToken: string | null;
}

const MAX_ID = 200;
const id = (name: string) =>
  v.pipe(
    v.string(`${name} must be text.`),
    v.trim(),
    v.nonEmpty(`${name} is empty.`),
    v.maxLength(MAX_ID, `${name} is too long.`),
  );
const localId = v.pipe(
  v.number('localId must be a number.'),
  v.integer('localId must be a whole number.'),
  v.minValue(1, 'localId must be positive.'),
);

/** A generous ceiling on a request body: prompts are long, but not megabytes. */
export const MAX_BODY_JSON_CHARS = 64 * 1024;
const fitsBody = <T>() =>
  v.check<T, string>(
    (body) => JSON.stringify(body).length <= MAX_BODY_JSON_CHARS,
    `The request is larger than ${MAX_BODY_JSON_CHARS / 1024} KB.`,
  );

const imageBodyShape = v.looseObject({ modelID: id('modelID') }, 'The request must be an object with a modelID.');
const imageBody = v.pipe(imageBodyShape, fitsBody<v.InferOutput<typeof imageBodyShape>>());
const videoBodyShape = v.looseObject(
  { modelID: id('modelID'), prompt: v.string('prompt must be text.') },
  'The request must be an object with modelID and prompt.',
);
const videoBody = v.pipe(videoBodyShape, fitsBody<v.InferOutput<typeof videoBodyShape>>());
const upscaleBody = v.strictObject({ imageID: id('imageID') }, 'An upscale request is { imageID } and nothing else.');

/**
 * Where a request came from, when it repeats, varies or remixes a job ("Generate again", "Vary",
 * Remix of one of its results): that job's service id. Kept on the job row, never sent; the family
 * tree shows the results of both as siblings.
 */
const origin = { originJobId: v.optional(id('originJobId')) };
export interface SubmitOriginInfo {
  originJobId?: string | undefined;
}

/**
 * The user's explicit "Generate anyway": sent although its estimate would pass a credit cap
 * (without it such a request is refused with 'over_budget' and the reason, core/budgets/).
 */
const overBudget = v.optional(v.literal(true, 'overBudget is true (the user chose to go over the cap) or left out.'));

/** What jobs:submit takes: one generation request of any kind (the core checks it against the model's rules). */
const submitRequest = v.variant(
  'kind',
  [
    v.strictObject({ kind: v.literal('image'), body: imageBody, ...origin, overBudget }),
    v.strictObject({ kind: v.literal('video'), body: videoBody, ...origin, overBudget }),
    v.strictObject({ kind: v.literal('upscale'), body: upscaleBody, ...origin, overBudget }),
  ],
  'A generation request is { kind: image | video | upscale, body }.',
);
export type SubmitRequestInfo = v.InferOutput<typeof submitRequest>;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const time = (name: string) =>
  v.pipe(
    v.string(`${name} must be a date and time.`),
    v.regex(RFC3339, `${name} must be an RFC 3339 time such as 2025-05-01T12:00:00Z.`),
    v.check((value) => Number.isFinite(Date.parse(value)), `${name} is not a real date.`),
  );

export const jobsInvoke = {
  /** Validated against the model's rules first: a refused request never leaves the machine ('validation', fields). */
  'jobs:submit': invoke(submitRequest, type<JobInfo>()),
  /** Live jobs and those finished recently (default the last 7 days), newest first. */
  'jobs:list': invoke(
    v.optional(
      v.strictObject({
        limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500, 'limit is at most 500.'))),
      }),
    ),
    type<JobInfo[]>(),
  ),
  'jobs:get': invoke(v.strictObject({ localId }), type<JobInfo>()),
  /** Sends a failed or unknown job's request again as a new job; the old one points to it. */
  'jobs:resubmit': invoke(v.strictObject({ localId }), type<JobInfo>()),
  /**
   * The user's confirmed "This is it": ties a job found on the service (`jobLocalId`, unattributed)
   * to the request that may have sent it (`rowLocalId`); only then its prompt and settings apply to
   * the job's outputs. Answers with the request's row, now following that job.
   */
  'jobs:attribute': invoke(v.strictObject({ jobLocalId: localId, rowLocalId: localId }), type<JobInfo>()),
  /** Stops a request from being sent again on its own (a waiting resend fails at once: nothing was created). */
  'jobs:cancel-resend': invoke(v.strictObject({ localId }), type<JobInfo>()),
  /** "Check now": drops any wait the service asked for (Retry-After) or backoff, and checks jobs and training now. */
  'jobs:check-now': invoke(v.undefined(), type<null>()),
  /** Cost before Generate: an estimate from the account's own recent jobs (no request is sent). */
  'jobs:estimate': invoke(
    v.strictObject({ kind: v.picklist(['image', 'video'], 'kind must be image or video.'), body: imageBody }),
    type<CostEstimateInfo>(),
  ),
  /** The service's job list (GET /jobs): a range of at most 7 days, refused on 'end' otherwise. */
  'jobs:history': invoke(
    v.strictObject({
      start: time('start'),
      end: time('end'),
      pageToken: v.optional(v.pipe(v.string(), v.maxLength(4096))),
    }),
    type<JobHistoryPageInfo>(),
  ),
};

export const jobsEvents = {
  /** One event per change of one job. */
  'jobs:changed': type<JobInfo>(),
};
