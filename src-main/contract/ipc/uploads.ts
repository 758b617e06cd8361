// Channels of image uploads to a model (training photos, reference images): every file is
// checked before anything is sent, then uploaded by a small queue with progress.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import { UPLOAD_TYPES, type UploadType } from '../service.ts';

export type UploadStateInfo = 'queued' | 'uploading' | 'succeeded' | 'failed' | 'cancelled' | 'removed';

export interface UploadInfo {
  id: number;
  modelId: string;
  type: UploadType;
  fileName: string;
  bytes: number | null;
  state: UploadStateInfo;
  /** 0 to 1. */
  progress: number;
  /** The service's image id once uploaded. */
  imageId: string | null;
  error: string | null;
  /** Accepted, but worth knowing (e.g. low resolution for training). */
  warning: string | null;
  width: number | null;
  height: number | null;
  attempts: number;
  createdAt: number;
}

export interface RefusedFileInfo {
  /** The file name (or path) as given. */
  name: string;
  reason: string;
}

export interface UploadsAddResultInfo {
  accepted: UploadInfo[];
  refused: RefusedFileInfo[];
  /** About the whole model, e.g. "12 of the 12–20 training photos". */
  notices: string[];
}

/** Base64 of a 20 MB file plus slack; the real size limit is checked on the decoded bytes. */
const MAX_BASE64_CHARS = 28 * 1024 * 1024;
export const MAX_FILES_PER_ADD = 40;

const fileSchema = v.union(
  [
    v.strictObject({
      path: v.pipe(v.string(), v.nonEmpty('The file path is empty.'), v.maxLength(4096, 'The file path is too long.')),
    }),
    v.strictObject({
      name: v.pipe(v.string(), v.nonEmpty('The file name is empty.'), v.maxLength(255, 'The file name is too long.')),
      bytesBase64: v.pipe(v.string(), v.maxLength(MAX_BASE64_CHARS, 'The file is larger than 20 MB.')),
    }),
  ],
  'Each file is { path } or { name, bytesBase64 }.',
);

const uploadId = v.pipe(v.number('id must be a number.'), v.integer(), v.minValue(1));

export const uploadsInvoke = {
  'uploads:add': invoke(
    v.strictObject({
      modelID: v.pipe(v.string(), v.trim(), v.nonEmpty('modelID is empty.'), v.maxLength(200)),
      type: v.picklist(UPLOAD_TYPES, 'type must be modelInput (training photo) or auxiliaryType (reference image).'),
      files: v.pipe(
        v.array(fileSchema),
        v.minLength(1, 'Add at least one file.'),
        v.maxLength(MAX_FILES_PER_ADD, `Add at most ${MAX_FILES_PER_ADD} files at once.`),
      ),
    }),
    type<UploadsAddResultInfo>(),
  ),
  'uploads:list': invoke(
    v.optional(v.strictObject({ modelID: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200))) })),
    type<UploadInfo[]>(),
  ),
  /** A failed or cancelled upload goes back in the queue. */
  'uploads:retry': invoke(v.strictObject({ id: uploadId }), type<UploadInfo>()),
  /** Cancels a queued or running upload, or forgets a finished one (the image stays on the service). */
  'uploads:remove': invoke(v.strictObject({ id: uploadId }), type<null>()),
};

export const uploadsEvents = {
  'uploads:changed': type<UploadInfo>(),
};
