// Channels of image uploads to a model (training photos, reference images): every file is
// checked before anything is sent, then uploaded by a small queue with progress.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import { UPLOAD_TYPES, type UploadType } from '../service.ts';
import { UPLOAD_RULES } from '../rules/upload.ts';

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

export const MAX_FILES_PER_ADD = 40;
/** Raw bytes per `uploads:send-chunk` (base64 makes it a third larger): far below any transport's message cap. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;
/** The largest file the service takes (20 MiB per request) less the multipart framing around it. */
export const MAX_UPLOAD_FILE_BYTES = UPLOAD_RULES.maxRequestBytes - 2 * 1024;
const MAX_CHUNK_BASE64_CHARS = Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4;

const fileName = v.pipe(
  v.string('The file name must be text.'),
  v.nonEmpty('The file name is empty.'),
  v.maxLength(255, 'The file name is too long.'),
);
const fileId = v.pipe(v.string('fileId must be text.'), v.regex(/^[0-9a-f]{32}$/, 'fileId is not one Atelier gave.'));
const base64Chunk = v.pipe(
  v.string('The bytes must be base64 text.'),
  v.maxLength(MAX_CHUNK_BASE64_CHARS, `Send at most ${UPLOAD_CHUNK_BYTES / 1024 / 1024} MiB per chunk.`),
);

/**
 * Bytes only, never a path: a file announced with uploads:begin-file and sent in chunks (any size
 * up to 20 MB, one path for every host), or a small file given inline (at most one chunk).
 */
const fileSchema = v.union(
  [v.strictObject({ fileId }), v.strictObject({ name: fileName, bytesBase64: base64Chunk })],
  'Each file is { fileId } (sent with uploads:send-chunk) or { name, bytesBase64 } of at most 1 MiB.',
);

export interface UploadFileInfo {
  /** Names the file in uploads:send-chunk and uploads:add. */
  fileId: string;
}

export interface UploadChunkInfo {
  /** Bytes received so far: the next chunk starts here. */
  received: number;
  complete: boolean;
}

const uploadId = v.pipe(v.number('id must be a number.'), v.integer(), v.minValue(1));

export const uploadsInvoke = {
  /** Announces a file the renderer is about to send in chunks; refused at once when over 20 MB. */
  'uploads:begin-file': invoke(
    v.strictObject({
      name: fileName,
      size: v.pipe(
        v.number('size must be a number.'),
        v.integer('size must be a whole number of bytes.'),
        v.minValue(1, 'The file is empty.'),
        v.maxValue(
          MAX_UPLOAD_FILE_BYTES,
          'The file is larger than 20 MB; the service accepts at most 20 MB per image.',
        ),
      ),
    }),
    type<UploadFileInfo>(),
  ),
  /** The next piece of an announced file, in order (`offset` = bytes received so far). */
  'uploads:send-chunk': invoke(
    v.strictObject({
      fileId,
      offset: v.pipe(v.number('offset must be a number.'), v.integer(), v.minValue(0)),
      bytesBase64: base64Chunk,
    }),
    type<UploadChunkInfo>(),
  ),
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
