// Prepares POST /images/upload: checks type, real format (magic bytes), the per-type count and the
// whole request size before anything is sent, then builds the multipart body (`file` + `data`).
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../contract/errors.ts';
import { detectImageFormat, UPLOAD_RULES, type DetectedImageFormat } from '../../contract/rules/index.ts';
import type { UploadData, UploadType } from '../../contract/service.ts';

export interface UploadProgress {
  transferred: number;
  /** Whole request size in bytes (multipart framing included). */
  total: number;
  /** 0 to 1. */
  percent: number;
}

export interface UploadImageRequest {
  modelID: string;
  type: UploadType;
  /** A file path, or bytes with the name to send. The name's extension plays no part in the checks. */
  file: string | { name: string; bytes: Uint8Array };
  onProgress?: (progress: UploadProgress) => void;
  /** How many images of this type the model already has, when the caller knows (≤ 20 per type). */
  existingCountOfType?: number;
  signal?: AbortSignal;
}

export interface PreparedUpload {
  fileName: string;
  format: DetectedImageFormat;
  body: { bytes: Uint8Array; contentType: string };
}

const MIME: Record<DetectedImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
};

const MB = 1024 * 1024;
/** Rounded up, so a size just over the limit never reads as the limit itself. */
const megabytes = (bytes: number): string => `${(Math.ceil((bytes / MB) * 10) / 10).toFixed(1)} MB`;

const refused = (fileName: string, field: string, reason: string): AppError =>
  new AppError({ code: 'validation', field, message: `"${fileName}" was not uploaded: ${reason}` });

async function readSource(file: UploadImageRequest['file']): Promise<{ fileName: string; bytes: Uint8Array }> {
  if (typeof file !== 'string') {
    if (!file || typeof file.name !== 'string' || !(file.bytes instanceof Uint8Array)) {
      throw new AppError({
        code: 'invalid_argument',
        field: 'file',
        message: 'file must be a path or { name, bytes }.',
      });
    }
    return { fileName: file.name || 'image', bytes: file.bytes };
  }
  const fileName = basename(file);
  try {
    // Size first, so a huge file is refused without being read into memory.
    const info = await stat(file);
    if (!info.isFile()) throw refused(fileName, 'file', 'it is not a file.');
    if (info.size > UPLOAD_RULES.maxRequestBytes) {
      throw refused(fileName, 'file', `it is ${megabytes(info.size)}; the service accepts at most 20 MB per upload.`);
    }
    return { fileName, bytes: await readFile(file) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code ?? 'unknown error';
    throw new AppError({
      code: 'invalid_argument',
      field: 'file',
      message: `"${fileName}" could not be read (${code}).`,
    });
  }
}

export async function prepareUpload(request: UploadImageRequest): Promise<PreparedUpload> {
  const { fileName, bytes } = await readSource(request.file);
  if (!(UPLOAD_RULES.types as readonly unknown[]).includes(request.type)) {
    throw refused(
      fileName,
      'type',
      `the upload type must be modelInput (training image) or auxiliaryType (reference image), not ${JSON.stringify(request.type)}.`,
    );
  }
  const format = detectImageFormat(bytes);
  if (!format) {
    throw refused(fileName, 'file', 'it is not a JPEG, PNG, WebP or HEIC image (judged by its content, not its name).');
  }
  const existing = request.existingCountOfType;
  if (existing !== undefined && existing >= UPLOAD_RULES.maxPerType) {
    throw refused(
      fileName,
      'type',
      `the model already has ${existing} ${request.type} images; at most ${UPLOAD_RULES.maxPerType} of each type are allowed.`,
    );
  }
  const data: UploadData = { modelID: request.modelID, type: request.type };
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: MIME[format] }), fileName);
  // Serialized once here: the limit is on the whole request, and a known length gives real progress.
  const serialized = new Response(form);
  const contentType = serialized.headers.get('content-type') ?? 'multipart/form-data';
  const body = new Uint8Array(await serialized.arrayBuffer());
  if (body.byteLength > UPLOAD_RULES.maxRequestBytes) {
    throw refused(
      fileName,
      'file',
      `the upload request would be ${megabytes(body.byteLength)}; the service accepts at most 20 MB.`,
    );
  }
  return { fileName, format, body: { bytes: body, contentType } };
}
