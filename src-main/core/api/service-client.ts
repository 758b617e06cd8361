// The typed service client: one method per endpoint of spec §4, each choosing its retry class,
// checking its arguments before sending, and checking the answer against its schema.
import * as v from 'valibot';
import { AppError } from '../../contract/errors.ts';
import type {
  CursorPage,
  ImageGenerationBody,
  ImageListFilter,
  ImageRecord,
  Job,
  JobsPage,
  Model,
  Preset,
  TriggerResponse,
  UploadedImage,
  UpscaleBody,
  VideoDownload,
  VideoGenerationBody,
  VideoRecord,
} from '../../contract/service.ts';
import type { Logger } from '../log/logger.ts';
import { redactSecretsDeep } from '../secrets/redact.ts';
import { checkResult, readPageFields } from './envelope.ts';
import { malformedError } from './errors.ts';
import { cursorPages, tokenPages } from './pagination.ts';
import {
  checkedGenerationBody,
  checkImageFilter,
  checkJobRange,
  checkPageSize,
  checkVideoFilter,
  pathSegment,
} from './request-checks.ts';
import type { RetryPolicyOptions, RetryTiming } from './retry-policy.ts';
import {
  ImageSchema,
  JobSchema,
  JobsPageSchema,
  MessageSchema,
  ModelSchema,
  PresetSchema,
  TriggerSchema,
  UploadedImageSchema,
  VideoDownloadSchema,
  VideoSchema,
} from './schemas.ts';
import { createTransport, type ClientTimeouts, type OkAnswer, type RequestSpec } from './transport.ts';
import { prepareUpload, type UploadImageRequest } from './upload.ts';

export interface ServiceClientOptions {
  baseUrl: string;
  /** Read before every request; null means no key (the request is refused with 'auth', unsent). */
  getApiKey: () => string | null;
  logger: Logger;
  timeouts?: Partial<ClientTimeouts>;
  retry?: Partial<RetryPolicyOptions>;
  /** Tests inject sleep/random/now so retries are instant and repeatable. */
  timing?: Partial<RetryTiming>;
  userAgent?: string;
  /** Answers larger than this are refused (default 32 MB). */
  maxAnswerBytes?: number;
  /** Told after every attempt whether the service answered or could not be reached (connectivity). */
  onReach?: (reached: boolean) => void;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Fields of POST /models are not given by the spec; `modelType` and (to update) `id` are what services read. */
export interface CreateModelBody {
  id?: string;
  modelType?: string;
  [field: string]: unknown;
}

export interface ImageListOptions extends CallOptions {
  imageType?: ImageListFilter;
  pageSize?: number;
}

export interface VideoListOptions extends CallOptions {
  videoType?: string;
  pageSize?: number;
}

export interface JobListOptions extends CallOptions {
  /** RFC 3339 time or a Date; default range: the last 24 hours. At most 7 days from start to end. */
  start?: string | Date;
  end?: string | Date;
}

export interface ServiceClient {
  readonly baseUrl: string;
  listModels(call?: CallOptions): Promise<Model[]>;
  getModel(modelID: string, call?: CallOptions): Promise<Model>;
  createModel(body: CreateModelBody, call?: CallOptions): Promise<Model>;
  /** The service's confirmation text. */
  deleteModel(modelID: string, call?: CallOptions): Promise<string>;
  listModelImages(
    modelID: string,
    options?: ImageListOptions,
  ): AsyncGenerator<CursorPage<ImageRecord>, void, undefined>;
  /** Starts training (never retried: a repeat could start a second run). Returns the service's message. */
  trainModel(modelID: string, call?: CallOptions): Promise<string>;
  uploadImage(request: UploadImageRequest): Promise<UploadedImage>;
  getImage(imageID: string, call?: CallOptions): Promise<ImageRecord>;
  deleteImage(imageID: string, call?: CallOptions): Promise<void>;
  generateImage(body: ImageGenerationBody, call?: CallOptions): Promise<TriggerResponse>;
  upscaleImage(body: UpscaleBody, call?: CallOptions): Promise<TriggerResponse>;
  generateVideo(body: VideoGenerationBody, call?: CallOptions): Promise<TriggerResponse>;
  listVideos(options?: VideoListOptions): AsyncGenerator<CursorPage<VideoRecord>, void, undefined>;
  getVideo(videoID: string, call?: CallOptions): Promise<VideoRecord>;
  /** Asks for download preparation; the id may be a video id or a public media id. */
  createVideoDownload(videoID: string, call?: CallOptions): Promise<string>;
  getVideoDownload(videoID: string, call?: CallOptions): Promise<VideoDownload>;
  listJobs(options?: JobListOptions): AsyncGenerator<JobsPage, void, undefined>;
  getJob(jobID: string, call?: CallOptions): Promise<Job>;
  listPresets(call?: CallOptions): Promise<Preset[]>;
  /**
   * The same service with another retry policy (the jobs engine polls with single attempts: its
   * own stored, jittered backoff is the retry loop of background work). Closed with this client.
   */
  withRetry(retry: Partial<RetryPolicyOptions>): ServiceClient;
  /** Releases the keep-alive sockets (and those of its withRetry siblings). */
  close(): void;
}

type Spec = RequestSpec;

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const logger = options.logger.child('api');
  const transport = createTransport({ ...options, logger });
  const siblings: ServiceClient[] = [];
  const now = (): number => options.timing?.now?.() ?? Date.now();

  async function call<T>(spec: Spec, schema: v.GenericSchema<unknown, T>): Promise<T> {
    const answer = await transport.request(spec);
    return resultOf(spec, answer, schema);
  }

  function resultOf<T>(spec: Spec, answer: OkAnswer, schema: v.GenericSchema<unknown, T>): T {
    const checked = checkResult(schema, answer.result);
    // The key has no business in any answer: one echoed back (in a job's error text, say) is removed
    // before the record is stored, shown or logged.
    if (checked.ok) return redactSecretsDeep(checked.value, transport.secrets());
    const error = malformedError(spec, answer.httpStatus, checked.reason, transport.secrets());
    logger.warn(`${spec.method} ${spec.template} answer refused`, { code: error.info.code, message: error.message });
    throw error;
  }

  async function cursorPage<T>(spec: Spec, itemSchema: v.GenericSchema<unknown, T>): Promise<CursorPage<T>> {
    const answer = await transport.request(spec);
    const items = resultOf(spec, answer, v.array(itemSchema));
    const fields = readPageFields(answer.body);
    if (!fields)
      throw malformedError(spec, answer.httpStatus, 'a list page without hasMore/nextCursor', transport.secrets());
    return { items, ...fields };
  }

  const loopError = (spec: Pick<Spec, 'method' | 'template'>) => () =>
    malformedError(
      spec,
      undefined,
      'the service repeated a page token it had already given (a page loop)',
      transport.secrets(),
    );

  const get = (template: string, path: string, signal?: AbortSignal, searchParams?: Spec['searchParams']): Spec => ({
    method: 'GET',
    template,
    path,
    retryClass: 'read',
    signal,
    ...(searchParams ? { searchParams } : {}),
  });

  const trigger = async (
    kind: 'image' | 'video' | 'upscale',
    template: string,
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ) => {
    const json = checkedGenerationBody(kind, body, transport.secrets());
    // Creates a paid job and the API has no idempotency key: never repeated automatically.
    return call({ method: 'POST', template, path, json, retryClass: 'never', signal }, TriggerSchema);
  };

  return {
    baseUrl: options.baseUrl,

    listModels: async (c) => call(get('/models', 'models', c?.signal), v.array(ModelSchema)),

    getModel: async (modelID, c) =>
      call(get('/models/{modelID}', `models/${pathSegment('modelID', modelID)}`, c?.signal), ModelSchema),

    async createModel(body, c) {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw new AppError({ code: 'invalid_argument', field: 'body', message: 'The model body must be an object.' });
      }
      if (body.id !== undefined) pathSegment('id', body.id);
      return call(
        {
          method: 'POST',
          template: '/models',
          path: 'models',
          json: body,
          retryClass: 'unsent-only',
          signal: c?.signal,
        },
        ModelSchema,
      );
    },

    deleteModel: async (modelID, c) =>
      call(
        {
          method: 'DELETE',
          template: '/models/{modelID}',
          path: `models/${pathSegment('modelID', modelID)}`,
          retryClass: 'unsent-only',
          signal: c?.signal,
        },
        MessageSchema,
      ),

    // List methods are async generators, so a bad argument surfaces where the pages are awaited,
    // like every other method's errors, and no request is made.
    async *listModelImages(modelID, list = {}) {
      const template = '/models/{modelID}/images';
      const path = `models/${pathSegment('modelID', modelID)}/images`;
      const imageType = checkImageFilter(list.imageType);
      const pageSize = checkPageSize(list.pageSize);
      yield* cursorPages(
        (cursor) =>
          cursorPage(
            get(template, path, list.signal, { imageType, pageSize, cursor: cursor || undefined }),
            ImageSchema,
          ),
        loopError({ method: 'GET', template }),
      );
    },

    trainModel: async (modelID, c) =>
      call(
        // A GET by the spec, but it starts a training run: never repeated automatically.
        {
          method: 'GET',
          template: '/models/{modelID}/train',
          path: `models/${pathSegment('modelID', modelID)}/train`,
          retryClass: 'never',
          signal: c?.signal,
        },
        MessageSchema,
      ),

    async uploadImage(request) {
      // The id travels in the `data` part, not the path, but it must still be a real id.
      pathSegment('modelID', request.modelID);
      const prepared = await prepareUpload(request);
      const onProgress = request.onProgress;
      return call(
        {
          method: 'POST',
          template: '/images/upload',
          path: 'images/upload',
          body: prepared.body,
          retryClass: 'unsent-only',
          signal: request.signal,
          ...(onProgress
            ? {
                onUploadProgress: (p) =>
                  onProgress({
                    transferred: p.transferred,
                    total: p.total ?? prepared.body.bytes.byteLength,
                    percent: p.percent,
                  }),
              }
            : {}),
        },
        UploadedImageSchema,
      );
    },

    getImage: async (imageID, c) =>
      call(get('/images/{imageID}', `images/${pathSegment('imageID', imageID)}`, c?.signal), ImageSchema),

    async deleteImage(imageID, c) {
      await transport.request({
        method: 'DELETE',
        template: '/images/{imageID}',
        path: `images/${pathSegment('imageID', imageID)}`,
        retryClass: 'unsent-only',
        signal: c?.signal,
      });
    },

    generateImage: async (body, c) => trigger('image', '/images/generation', 'images/generation', body, c?.signal),
    upscaleImage: async (body, c) => trigger('upscale', '/images/upscaling', 'images/upscaling', body, c?.signal),
    generateVideo: async (body, c) => trigger('video', '/videos/generation', 'videos/generation', body, c?.signal),

    async *listVideos(list = {}) {
      const videoType = checkVideoFilter(list.videoType);
      const pageSize = checkPageSize(list.pageSize);
      yield* cursorPages(
        (cursor) =>
          cursorPage(
            get('/videos', 'videos', list.signal, { videoType, pageSize, cursor: cursor || undefined }),
            VideoSchema,
          ),
        loopError({ method: 'GET', template: '/videos' }),
      );
    },

    getVideo: async (videoID, c) =>
      call(get('/videos/{videoID}', `videos/${pathSegment('videoID', videoID)}`, c?.signal), VideoSchema),

    createVideoDownload: async (videoID, c) =>
      // Repeating a preparation request changes nothing on the service, so it retries like a read.
      call(
        get(
          '/videos/{videoID}/create-download',
          `videos/${pathSegment('videoID', videoID)}/create-download`,
          c?.signal,
        ),
        MessageSchema,
      ),

    getVideoDownload: async (videoID, c) =>
      call(
        get('/videos/{videoID}/download', `videos/${pathSegment('videoID', videoID)}/download`, c?.signal),
        VideoDownloadSchema,
      ),

    async *listJobs(list = {}) {
      const range = checkJobRange(list, now());
      // A fully given range is repeated on every page; a half-open or default one is carried by the token
      // (re-sending only `start` would make the service recompute "now" and see a different range).
      const repeatRange = range.start !== undefined && range.end !== undefined;
      yield* tokenPages(
        (pageToken) =>
          call(
            get('/jobs', 'jobs', list.signal, {
              ...(pageToken === '' || repeatRange ? range : {}),
              pageToken: pageToken || undefined,
            }),
            JobsPageSchema,
          ),
        loopError({ method: 'GET', template: '/jobs' }),
      );
    },

    getJob: async (jobID, c) => call(get('/jobs/{id}', `jobs/${pathSegment('jobID', jobID)}`, c?.signal), JobSchema),

    listPresets: async (c) => call(get('/presets', 'presets', c?.signal), v.array(PresetSchema)),

    withRetry(retry) {
      const sibling = createServiceClient({ ...options, retry: { ...options.retry, ...retry } });
      siblings.push(sibling);
      return sibling;
    },
    close: () => {
      transport.close();
      siblings.splice(0).forEach((sibling) => sibling.close());
    },
  };
}
