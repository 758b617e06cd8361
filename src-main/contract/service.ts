// The media-generation service's resources, envelopes, request bodies and client-practice constants (spec §1–§8), as types.
//
// Response types are tolerant on purpose: statuses and `type` fields are plain strings (the spec names
// some values but says others exist), `data` is free-form, and fields the spec marks as conditional or
// "sanitized" are optional. Request bodies are precise, because we write them.
import type { ImageAspectRatio, PublicImageModelId, PublicImageOptions } from './rules/image-models.ts';

// ---------------------------------------------------------------------------------------------------
// Envelopes (spec §1, §7)

export interface OkEnvelope<T> {
  result: T;
  status: 'OK';
}

/** Paginated list responses carry the cursor fields next to `result` (spec §1). */
export interface PagedOkEnvelope<T> extends OkEnvelope<T[]> {
  hasMore: boolean;
  nextCursor: string;
  page: number;
  pageSize: number;
}

export interface NokEnvelope {
  err: string;
  message: string;
  result: null;
  status: 'NOK';
}

export type Envelope<T> = OkEnvelope<T> | NokEnvelope;

/** The unwrapped form of a cursor-paginated list, as the client hands it on. */
export interface CursorPage<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string;
  page: number;
  pageSize: number;
}

/** `GET /jobs` result: its own pagination by `pageToken`, not cursors. */
export interface JobsPage {
  jobs: JobSummary[];
  nextPageToken: string;
}

// ---------------------------------------------------------------------------------------------------
// Statuses (spec §3). Named constants for the values the spec names; everything else stays a string.

export const JOB_STATUS = {
  created: 'created',
  queued: 'queued',
  running: 'running',
  success: 'success',
} as const;

const NON_TERMINAL_JOB_STATUSES: ReadonlySet<string> = new Set([
  JOB_STATUS.created,
  JOB_STATUS.queued,
  JOB_STATUS.running,
]);

/** Case-insensitive; any status outside created/queued/running is terminal (spec §3), even unknown ones. */
export function isJobTerminal(status: string): boolean {
  return !NON_TERMINAL_JOB_STATUSES.has(String(status).trim().toLowerCase());
}

export function isJobSuccess(status: string): boolean {
  return String(status).trim().toLowerCase() === JOB_STATUS.success;
}

export const MODEL_STATUS = {
  new: 'new',
  ready: 'ready',
  deleted: 'deleted',
  /** The spec only says the model is "described as training"; this is our best reading of the value. */
  training: 'training',
} as const;

/** Only a `ready` model can generate (spec §3). Case-insensitive like job statuses. */
export function isModelUsable(status: string): boolean {
  return String(status).trim().toLowerCase() === MODEL_STATUS.ready;
}

export const DOWNLOAD_STATUS = {
  inprogress: 'inprogress',
  ready: 'ready',
  error: 'error',
} as const;

/** Download preparation ends at `ready` (url present) or `error`; anything else keeps polling. */
export function isDownloadTerminal(status: string): boolean {
  const s = String(status).trim().toLowerCase();
  return s === DOWNLOAD_STATUS.ready || s === DOWNLOAD_STATUS.error;
}

// ---------------------------------------------------------------------------------------------------
// Resources (spec §2)

export interface Model {
  id: string;
  modelType: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export const UPLOAD_TYPES = ['modelInput', 'auxiliaryType'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** Filter values of `GET /models/{id}/images?imageType=`. */
export const IMAGE_LIST_FILTERS = ['all', 'input', 'output', 'auxiliaryType'] as const;
export type ImageListFilter = (typeof IMAGE_LIST_FILTERS)[number];

export interface ImageRecord {
  id: string;
  modelID: string;
  type: string;
  url: string;
  upscaledImageID?: string;
  upscaledImageURL?: string;
  folderID?: string;
  publicMediaID?: string;
  liked?: boolean;
  data?: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
}

/** The upload response is only guaranteed to carry id, url, modelID and type (spec §2). */
export type UploadedImage = Pick<ImageRecord, 'id' | 'url' | 'modelID' | 'type'> & Partial<ImageRecord>;

export interface VideoRecord {
  id: string;
  jobId?: string;
  modelID?: string;
  type?: string;
  url: string;
  folderID?: string;
  publicMediaID?: string;
  liked?: boolean;
  data?: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
}

/** One output of a finished job. For videos the url may be a streaming (HLS) playlist. */
export interface JobOutput {
  id: string;
  url: string;
}

export interface Job {
  jobId: string;
  status: string;
  createdAt?: string;
  images?: JobOutput[];
  videos?: JobOutput[];
  /** Failure text, read when the status is terminal and not success. */
  error?: string;
}

export interface JobSummary {
  jobId: string;
  status: string;
  createdAt?: string;
  updatedAt?: string;
  credits?: number;
  errorMessage?: string;
}

/** `result` of every generation trigger; the initial status is `queued`. */
export interface TriggerResponse {
  jobId: string;
  status: string;
}

export interface VideoDownload {
  status: string;
  percentComplete?: number;
  url?: string;
}

export interface Preset {
  tag: string;
  name: string;
  category: string;
}

// ---------------------------------------------------------------------------------------------------
// Request bodies (spec §4). Runtime rules for all of them live in ./rules/.

/** The public image models: the keys of the rule table (contract/rules/image-models.ts), written once there. */
export type PublicImageModelID = PublicImageModelId;

export interface PublicImageGenerationBody {
  modelID: PublicImageModelID;
  prompt: string;
  preset?: string;
  aspectRatio?: ImageAspectRatio;
  numImages?: number;
  referenceImageURLs?: string[];
  options?: PublicImageOptions;
}

/** Body for a trained model (any model id from `GET /models`). */
export interface TrainedImageGenerationBody {
  modelID: string;
  prompt?: string;
  preset?: string;
  inputImageId?: string;
  width?: number;
  height?: number;
  numImages?: number;
  steps?: number;
  seed?: number;
  runType?: string;
  enhanceFace?: boolean;
  styleStrength?: number;
}

export type ImageGenerationBody = PublicImageGenerationBody | TrainedImageGenerationBody;

export interface UpscaleBody {
  imageID: string;
}

export type VideoModelID =
  | 'videoa-3.1'
  | 'videoa-3.1-fast'
  | 'videob-1.5-pro'
  | 'videob-2.0'
  | 'videoc-video-standard'
  | 'videoc-video-pro'
  | 'videoc-motion-standard'
  | 'videoc-motion-pro'
  | 'videod-1.5';

export type ReferenceImageRole = 'first_frame' | 'last_frame' | 'reference_image';

export interface ReferenceImage {
  url: string;
  role: ReferenceImageRole;
}

export interface ReferenceVideo {
  url: string;
  role: 'reference_video';
}

export type VideoRatio = '16:9' | '4:3' | '1:1' | '3:4' | '9:16' | '21:9' | 'adaptive';

export interface VideoaOptions {
  aspectRatio?: '16:9' | '9:16';
  duration?: 4 | 6 | 8;
  resolution?: '720p' | '1080p';
  enhancePrompt?: boolean;
  generateAudio?: boolean;
  negativePrompt?: string;
  seed?: number;
}

/** videob-1.5-pro and videob-2.0 share the group; draftMode exists only on 1.5-pro. */
export interface VideobOptions {
  resolution?: '480p' | '720p' | '1080p';
  ratio?: VideoRatio;
  duration?: number;
  draftMode?: boolean;
  generateAudio?: boolean;
  returnLastFrame?: boolean;
  seed?: number;
}

/** Video models use duration/aspectRatio/generateAudio; motion models use characterOrientation/keepOriginalSound. */
export interface VideocOptions {
  duration?: number;
  aspectRatio?: '16:9' | '9:16' | '1:1';
  generateAudio?: boolean;
  characterOrientation?: 'image' | 'video';
  keepOriginalSound?: boolean;
}

export interface VideodOptions {
  duration?: number;
  aspectRatio?: '1:1' | '16:9' | '9:16' | '4:3' | '3:4' | '3:2' | '2:3';
  resolution?: '480p' | '720p';
}

export type VideoOptions =
  { videoa: VideoaOptions } | { videob: VideobOptions } | { videoc: VideocOptions } | { videod: VideodOptions };

export interface VideoGenerationBody {
  modelID: VideoModelID;
  prompt: string;
  numVideos?: number;
  referenceImages?: ReferenceImage[];
  referenceVideos?: ReferenceVideo[];
  elementIDs?: string[];
  options?: VideoOptions;
}

/** The JSON carried in the `data` part of `POST /images/upload`. */
export interface UploadData {
  modelID: string;
  type: UploadType;
}

// ---------------------------------------------------------------------------------------------------
// Client practice and limits (spec §4 polling table, §8)

export const API_VERSION = '1';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const POLL_INTERVALS_MS = {
  imageJob: 5 * SECOND,
  /** Upscaling produces images, so it polls like an image job (the spec has no separate row). */
  upscaleJob: 5 * SECOND,
  videoJob: 8 * SECOND,
  videoDownload: 5 * SECOND,
  training: 5 * MINUTE,
  /** Stop regular training checks after this long (training usually takes 20–25 min). */
  trainingGiveUpAfter: 35 * MINUTE,
} as const;

export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

/** The service falls back to the default for an invalid pageSize; this mirrors that. */
export function effectivePageSize(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= PAGE_SIZE.min && n <= PAGE_SIZE.max
    ? n
    : PAGE_SIZE.default;
}

export const JOB_LIST_RANGE_MS = { default: 24 * HOUR, max: 7 * 24 * HOUR } as const;
