// Checks every file BEFORE any upload: real format by content, size, duplicates by SHA-256
// (within the batch, the queue and the model's images this app knows), low resolution (a warning),
// and the per-type count (≤ 20 each; 12–20 training photos). Each refused file gets its reason.
import { createHash } from 'node:crypto';
import { loadSharp } from '../lazy-sharp.ts';
import { MAX_UPLOAD_FILE_BYTES, type RefusedFileInfo } from '../../contract/ipc/uploads.ts';
import { detectImageFormat, UPLOAD_RULES, type DetectedImageFormat } from '../../contract/rules/index.ts';
import type { UploadType } from '../../contract/service.ts';

/** Bytes only: a file received in chunks, or a small one sent inline as base64. Never a path. */
export type FileSource = { name: string; bytes: Uint8Array } | { name: string; bytesBase64: string };

export interface CheckedFile {
  fileName: string;
  bytes: Uint8Array;
  sha256: string;
  format: DetectedImageFormat;
  width: number | null;
  height: number | null;
  warning: string | null;
}

export interface CheckContext {
  type: UploadType;
  /** Images of this type the model has (service count when reachable) plus those queued here. */
  countOfType: number;
  /** SHA-256 of this model's images of this type that the app knows (uploaded or queued). */
  knownHashes: ReadonlySet<string>;
}

export interface CheckResult {
  accepted: CheckedFile[];
  refused: RefusedFileInfo[];
}

/** The request less its multipart framing (boundaries, part headers, the data JSON). */
export const MAX_FILE_BYTES = MAX_UPLOAD_FILE_BYTES;
/** Below this short side a photo is accepted with a warning (training photos need detail). */
export const LOW_RESOLUTION_PX: Record<UploadType, number> = { modelInput: 512, auxiliaryType: 256 };

const MB = 1024 * 1024;
const megabytes = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

class Refusal extends Error {}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function readBytes(source: FileSource): Promise<Uint8Array> {
  if ('bytes' in source) {
    if (source.bytes.byteLength > MAX_FILE_BYTES)
      throw new Refusal(`it is ${megabytes(source.bytes.byteLength)}; the service accepts at most 20 MB per image.`);
    return source.bytes;
  }
  const text = source.bytesBase64.replace(/\s+/g, '');
  if (!BASE64.test(text)) throw new Refusal('its content did not arrive intact (not base64).');
  if (Math.floor((text.length * 3) / 4) > MAX_FILE_BYTES + 3) {
    throw new Refusal(`it is larger than 20 MB; the service accepts at most 20 MB per image.`);
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.byteLength > MAX_FILE_BYTES)
    throw new Refusal(`it is ${megabytes(bytes.byteLength)}; the service accepts at most 20 MB per image.`);
  return bytes;
}

async function dimensionsOf(bytes: Uint8Array): Promise<{ width: number | null; height: number | null }> {
  try {
    const sharp = await loadSharp();
    const meta = await sharp(bytes, { failOn: 'none' }).metadata();
    // EXIF orientations 5–8 swap the visible width and height.
    const swap = (meta.orientation ?? 1) >= 5;
    const width = meta.width ?? null;
    const height = meta.height ?? null;
    return swap ? { width: height, height: width } : { width, height };
  } catch {
    // HEIC needs a codec sharp's build may lack: the size stays unknown, which is no reason to refuse.
    return { width: null, height: null };
  }
}

export async function checkFiles(files: readonly FileSource[], context: CheckContext): Promise<CheckResult> {
  const accepted: CheckedFile[] = [];
  const refused: RefusedFileInfo[] = [];
  const hashes = new Set(context.knownHashes);
  let count = context.countOfType;
  const max = UPLOAD_RULES.maxPerType;
  for (const source of files) {
    const fileName = source.name;
    try {
      const bytes = await readBytes(source);
      const format = detectImageFormat(bytes);
      if (!format)
        throw new Refusal('it is not a JPEG, PNG, WebP or HEIC image (judged by its content, not its name).');
      const sha256 = sha256Of(bytes);
      if (hashes.has(sha256)) throw new Refusal('the same image is already on this model or in the upload queue.');
      if (count >= max) {
        throw new Refusal(
          `the model would have more than ${max} ${context.type === 'modelInput' ? 'training photos' : 'reference images'} (at most ${max} of each type).`,
        );
      }
      const { width, height } = await dimensionsOf(bytes);
      const minimum = LOW_RESOLUTION_PX[context.type];
      const short = width !== null && height !== null ? Math.min(width, height) : null;
      const warning =
        short !== null && short < minimum
          ? `Low resolution (${width}×${height}): ${context.type === 'modelInput' ? 'training' : 'references'} work best from ${minimum} px on the short side.`
          : null;
      hashes.add(sha256);
      count += 1;
      accepted.push({
        fileName,
        bytes,
        sha256,
        format,
        width,
        height,
        warning,
      });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refused.push({ name: fileName, reason: `"${fileName}" was not added: ${error.message}` });
    }
  }
  return { accepted, refused };
}

/** A sentence about the model's training photos after this add (modelInput only). */
export function trainingNotice(total: number): string {
  const { trainingMin, trainingMax } = UPLOAD_RULES;
  if (total < trainingMin) {
    const more = trainingMin - total;
    return `${total} training photo${total === 1 ? '' : 's'}: add ${more} more to reach the ${trainingMin}–${trainingMax} needed for training.`;
  }
  return `${total} training photos: enough to train (${trainingMin}–${trainingMax}).`;
}
