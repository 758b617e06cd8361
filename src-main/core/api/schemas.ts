// Runtime shapes of the service's answers (spec §2). Strict where our code relies on a value (ids,
// urls, statuses, outputs), lenient elsewhere: unknown fields are dropped, unknown status strings
// pass, and a wrongly typed optional field becomes undefined instead of failing the whole answer.
import * as v from 'valibot';
import type {
  ImageRecord,
  Job,
  JobSummary,
  JobsPage,
  Model,
  Preset,
  TriggerResponse,
  UploadedImage,
  VideoDownload,
  VideoRecord,
} from '../../contract/service.ts';

const id = v.pipe(v.string(), v.minLength(1, 'must be a non-empty id'));
/** A field we show but never branch on. */
const loose = <T extends v.GenericSchema>(schema: T) => v.fallback(v.optional(schema), undefined);
const looseString = loose(v.string());
const textOrEmpty = v.fallback(v.string(), '');
const freeForm = loose(v.record(v.string(), v.unknown()));

export const ModelSchema = v.object({
  id,
  modelType: textOrEmpty,
  status: v.string(),
  createdAt: textOrEmpty,
  updatedAt: textOrEmpty,
}) satisfies v.GenericSchema<unknown, Model>;

const imageFields = {
  upscaledImageID: looseString,
  upscaledImageURL: looseString,
  folderID: looseString,
  publicMediaID: looseString,
  liked: loose(v.boolean()),
  data: freeForm,
  createdAt: looseString,
  updatedAt: looseString,
};

export const ImageSchema = v.object({
  id,
  url: v.string(),
  modelID: textOrEmpty,
  type: textOrEmpty,
  ...imageFields,
}) satisfies v.GenericSchema<unknown, ImageRecord>;

/** The upload answer is only promised id, url, modelID and type (spec §2), so those four are required. */
export const UploadedImageSchema = v.object({
  id,
  url: v.string(),
  modelID: v.string(),
  type: v.string(),
  ...imageFields,
}) satisfies v.GenericSchema<unknown, UploadedImage>;

export const VideoSchema = v.object({
  id,
  url: v.string(),
  jobId: looseString,
  modelID: looseString,
  type: looseString,
  folderID: looseString,
  publicMediaID: looseString,
  liked: loose(v.boolean()),
  data: freeForm,
  createdAt: looseString,
  updatedAt: looseString,
}) satisfies v.GenericSchema<unknown, VideoRecord>;

const JobOutputSchema = v.object({ id, url: v.pipe(v.string(), v.minLength(1, 'must be a non-empty url')) });

export const JobSchema = v.object({
  jobId: id,
  status: v.string(),
  createdAt: looseString,
  // Outputs are what a finished job is for: when present they must be right.
  images: v.optional(v.array(JobOutputSchema)),
  videos: v.optional(v.array(JobOutputSchema)),
  error: looseString,
}) satisfies v.GenericSchema<unknown, Job>;

export const JobSummarySchema = v.object({
  jobId: id,
  status: v.string(),
  createdAt: looseString,
  updatedAt: looseString,
  credits: loose(v.number()),
  errorMessage: looseString,
}) satisfies v.GenericSchema<unknown, JobSummary>;

export const JobsPageSchema = v.object({
  jobs: v.array(JobSummarySchema),
  // An absent or null token means the same as "": no further page.
  nextPageToken: v.fallback(v.string(), ''),
}) satisfies v.GenericSchema<unknown, JobsPage>;

export const TriggerSchema = v.object({
  jobId: id,
  // The spec promises `queued` at first; a missing status must not read as terminal.
  status: v.fallback(v.string(), 'queued'),
}) satisfies v.GenericSchema<unknown, TriggerResponse>;

export const VideoDownloadSchema = v.object({
  status: v.string(),
  percentComplete: loose(v.number()),
  url: looseString,
}) satisfies v.GenericSchema<unknown, VideoDownload>;

export const PresetSchema = v.object({
  tag: id,
  name: textOrEmpty,
  category: textOrEmpty,
}) satisfies v.GenericSchema<unknown, Preset>;

/** Results the spec types as "a string" (messages): anything else is tolerated and read as ''. */
export const MessageSchema = v.fallback(v.string(), '');
