// The checks a training photo passes in the renderer before anything is sent: format by content,
// size, duplicates by SHA-256, resolution (a warning) and the 12–20 count. The core checks again.
import { UPLOAD_RULES, type DetectedImageFormat } from '@contract/rules/index.ts';

/** What the renderer read of one file (the state module does the reading). */
export interface PhotoFacts {
  name: string;
  bytes: number;
  /** From the first bytes; null = not an accepted image format. */
  format: DetectedImageFormat | null;
  /** Hex SHA-256 of the whole file; null when it was not worth hashing (already refused). */
  sha256: string | null;
  /** Decoded size; null when the browser cannot decode the format (HEIC) or decoding failed. */
  width: number | null;
  height: number | null;
}

export type PhotoVerdict = { ok: true; warning: string | null } | { ok: false; reason: string };

export interface PhotoCheckContext {
  /** Training photos the model has, plus those already uploading or waiting to be sent. */
  countBefore: number;
  /** Hashes of photos already waiting or sent from here for this model. */
  knownHashes: ReadonlySet<string>;
}

/** Multipart framing around the file; the service's 20 MB is for the whole request. */
const MULTIPART_ALLOWANCE = 2 * 1024;
export const MAX_PHOTO_BYTES = UPLOAD_RULES.maxRequestBytes - MULTIPART_ALLOWANCE;
/** Below this short side a training photo is accepted with a warning. */
export const LOW_RESOLUTION_PX = 512;
/** Bytes read to judge the format (HEIC's brand list needs a few dozen). */
export const FORMAT_SNIFF_BYTES = 64;

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Refusals that need no hash: wrong format or too large. */
export function quickRefusal(facts: Pick<PhotoFacts, 'bytes' | 'format'>): string | null {
  if (facts.bytes === 0) return 'the file is empty.';
  if (!facts.format) return 'it is not a JPEG, PNG, WebP or HEIC image (judged by its content, not its name).';
  if (facts.bytes > MAX_PHOTO_BYTES)
    return `it is ${megabytes(facts.bytes)}; the service accepts at most 20 MB per image.`;
  return null;
}

/** One verdict per file, in order; duplicates and the count are judged across the batch. */
export function judgePhotos(files: readonly PhotoFacts[], context: PhotoCheckContext): PhotoVerdict[] {
  const seen = new Set(context.knownHashes);
  let count = context.countBefore;
  return files.map((file): PhotoVerdict => {
    const quick = quickRefusal(file);
    if (quick) return { ok: false, reason: quick };
    if (file.sha256 !== null && seen.has(file.sha256))
      return { ok: false, reason: 'the same image is already among these photos or on its way to this model.' };
    if (count >= UPLOAD_RULES.trainingMax)
      return {
        ok: false,
        reason: `the model would have more than ${UPLOAD_RULES.trainingMax} training photos (${UPLOAD_RULES.trainingMin}–${UPLOAD_RULES.trainingMax} are used).`,
      };
    if (file.sha256 !== null) seen.add(file.sha256);
    count += 1;
    const short = file.width !== null && file.height !== null ? Math.min(file.width, file.height) : null;
    const warning =
      short !== null && short < LOW_RESOLUTION_PX
        ? `Low resolution (${file.width}×${file.height}): training works best from ${LOW_RESOLUTION_PX} px on the short side.`
        : null;
    return { ok: true, warning };
  });
}

/** "12 of 12–20": where the model will stand, and what it still needs. */
export function photoCountSummary(count: number): { text: string; enough: boolean; over: boolean } {
  const { trainingMin: min, trainingMax: max } = UPLOAD_RULES;
  if (count < min) {
    const more = min - count;
    return { text: `${count} of ${min}–${max}: add ${more} more to train`, enough: false, over: false };
  }
  if (count > max) return { text: `${count}: more than the ${max} a training uses`, enough: false, over: true };
  return { text: `${count} of ${min}–${max}: enough to train`, enough: true, over: false };
}
