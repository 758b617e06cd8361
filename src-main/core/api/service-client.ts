// The typed service client: one method per endpoint of spec §4 (its path written once, as the spec's
// template), each choosing its retry class, checking its arguments before sending, and checking the
// answer against its schema. Generation requests arrive checked by the core (generation-request.ts).
import * as v from 'valibot';
import { AppError } from '../../contract/errors.ts';
import type {
  CursorPage,
  ImageListFilter,
  ImageRecord,
  Job,
  JobsPage,
  Model,
  Preset,
  TriggerResponse,
  UploadedImage,
  VideoDownload,
  VideoRecord,
} from '../../contract/service.ts';
import { redactSecretsDeep } from '../secrets/redact.ts';
import { checkResult, readPageFields } from './envelope.ts';
import { malformedError, serviceError } from './errors.ts';
import { wireRefusal, type TriggerRequest } from './generation-request.ts';
import { cursorPages, tokenPages } from './pagination.ts';
import { path, pathSegment, type Route } from './path.ts';
import { checkImageFilter, checkJobRange, checkPageSize, checkVideoFilter } from './request-checks.ts';
import type { RetryPolicyOptions } from './retry-policy.ts';
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
import { createTransport, type OkAnswer, type RequestSpec, type TransportOptions } from './transport.ts';
import { prepareUpload, type UploadImageRequest } from './upload.ts';

/** How a client is made: the transport's options (address, key, timeouts, retries, limits, reach). */
export type ServiceClientOptions = TransportOptions;

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
  /** Continue a listing of the same range from this page (a `nextPageToken` it gave). */
  pageToken?: string;
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
  /**
   * POST /images/generation, /images/upscaling or /videos/generation, by the request's kind. Sends the
   * body as given (the core checked and normalised it); never retried: it creates a paid job.
   */
  submit(request: TriggerRequest, call?: CallOptions): Promise<TriggerResponse>;
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

  const get = (route: Route, signal?: AbortSignal, searchParams?: Spec['searchParams']): Spec => ({
    method: 'GET',
    ...route,
    retryClass: 'read',
    signal,
    ...(searchParams ? { searchParams } : {}),
  });

  const TRIGGER_TEMPLATES: Record<TriggerRequest['kind'], string> = {
    image: '/images/generation',
    upscale: '/images/upscaling',
    video: '/videos/generation',
  };

  return {
    baseUrl: options.baseUrl,

    listModels: async (c) => call(get(path('/models'), c?.signal), v.array(ModelSchema)),

    getModel: async (modelID, c) => call(get(path('/models/{modelID}', { modelID }), c?.signal), ModelSchema),

    async createModel(body, c) {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw new AppError({ code: 'invalid_argument', field: 'body', message: 'The model body must be an object.' });
      }
      if (body.id !== undefined) pathSegment('id', body.id);
      return call(
        {
          method: 'POST',
          ...path('/models'),
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
          ...path('/models/{modelID}', { modelID }),
          retryClass: 'unsent-only',
          signal: c?.signal,
        },
        MessageSchema,
      ),

    // List methods are async generators, so a bad argument surfaces where the pages are awaited,
    // like every other method's errors, and no request is made.
    async *listModelImages(modelID, list = {}) {
      const route = path('/models/{modelID}/images', { modelID });
      const imageType = checkImageFilter(list.imageType);
      const pageSize = checkPageSize(list.pageSize);
      yield* cursorPages(
        (cursor) =>
          cursorPage(get(route, list.signal, { imageType, pageSize, cursor: cursor || undefined }), ImageSchema),
        loopError({ method: 'GET', template: route.template }),
      );
    },

    trainModel: async (modelID, c) =>
      call(
        // A GET by the spec, but it starts a training run: never repeated automatically.
        {
          method: 'GET',
          ...path('/models/{modelID}/train', { modelID }),
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
          ...path('/images/upload'),
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

    getImage: async (imageID, c) => call(get(path('/images/{imageID}', { imageID }), c?.signal), ImageSchema),

    async deleteImage(imageID, c) {
      await transport.request({
        method: 'DELETE',
        ...path('/images/{imageID}', { imageID }),
        retryClass: 'unsent-only',
        signal: c?.signal,
      });
    },

    async submit(request, c) {
      const refused = wireRefusal(request);
      if (refused) throw serviceError(refused, transport.secrets());
      const route = path(TRIGGER_TEMPLATES[request.kind]);
      // Creates a paid job and the API has no idempotency key: never repeated automatically.
      return call(
        { method: 'POST', ...route, json: request.body, retryClass: 'never', signal: c?.signal },
        TriggerSchema,
      );
    },

    async *listVideos(list = {}) {
      const route = path('/videos');
      const videoType = checkVideoFilter(list.videoType);
      const pageSize = checkPageSize(list.pageSize);
      yield* cursorPages(
        (cursor) =>
          cursorPage(get(route, list.signal, { videoType, pageSize, cursor: cursor || undefined }), VideoSchema),
        loopError({ method: 'GET', template: route.template }),
      );
    },

    getVideo: async (videoID, c) => call(get(path('/videos/{videoID}', { videoID }), c?.signal), VideoSchema),

    createVideoDownload: async (videoID, c) =>
      // Repeating a preparation request changes nothing on the service, so it retries like a read.
      call(get(path('/videos/{videoID}/create-download', { videoID }), c?.signal), MessageSchema),

    getVideoDownload: async (videoID, c) =>
      call(get(path('/videos/{videoID}/download', { videoID }), c?.signal), VideoDownloadSchema),

    async *listJobs(list = {}) {
      const route = path('/jobs');
      const range = checkJobRange(list, now());
      // A fully given range is repeated on every page; a half-open or default one is carried by the token
      // (re-sending only `start` would make the service recompute "now" and see a different range).
      const repeatRange = range.start !== undefined && range.end !== undefined;
      yield* tokenPages(
        (pageToken) =>
          call(
            get(route, list.signal, {
              ...(pageToken === '' || repeatRange ? range : {}),
              pageToken: pageToken || undefined,
            }),
            JobsPageSchema,
          ),
        loopError({ method: 'GET', template: route.template }),
        list.pageToken ?? '',
      );
    },

    getJob: async (id, c) => call(get(path('/jobs/{id}', { id }), c?.signal), JobSchema),

    listPresets: async (c) => call(get(path('/presets'), c?.signal), v.array(PresetSchema)),

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
