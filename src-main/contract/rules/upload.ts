// Upload limits of spec §8 and image format detection by magic bytes (the file name and MIME type are not trusted).
import { UPLOAD_TYPES } from '../service.ts';
import type { FieldProblem } from './common.ts';
import { describe, isNonEmptyString, isRecord, problem, unknownKeyProblems } from './common.ts';

export const UPLOAD_RULES = {
  types: UPLOAD_TYPES,
  /** File extensions the spec lists; jpg and jpeg are the same format. */
  formats: ['jpg', 'jpeg', 'webp', 'png', 'heic'],
  /** The whole multipart request, not just the file. */
  maxRequestBytes: 20 * 1024 * 1024,
  /** Per model, per upload type. */
  maxPerType: 20,
  /** modelInput images a model needs before training may start. */
  trainingMin: 12,
  trainingMax: 20,
} as const;

export type DetectedImageFormat = 'jpeg' | 'png' | 'webp' | 'heic';

/** ISO-BMFF brands that mean an HEVC-coded HEIF image (or sequence). */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
/** Generic HEIF brands: HEIC unless the file declares AVIF instead (AVIF shares these brands). */
const GENERIC_HEIF_BRANDS = new Set(['mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, end));

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);
}

function detectHeic(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const boxSize = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
  if (boxSize < 16) return false;
  const major = ascii(bytes, 8, 12);
  const end = Math.min(boxSize, bytes.length);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= end; at += 4) compatible.push(ascii(bytes, at, at + 4));
  if (AVIF_BRANDS.has(major)) return false;
  if (HEIC_BRANDS.has(major)) return true;
  if (compatible.some((b) => HEIC_BRANDS.has(b))) return true;
  return GENERIC_HEIF_BRANDS.has(major) && !compatible.some((b) => AVIF_BRANDS.has(b));
}

/** The accepted image format the bytes really are, or null for anything else (GIF, AVIF, text, truncated…). */
export function detectImageFormat(bytes: Uint8Array): DetectedImageFormat | null {
  if (!(bytes instanceof Uint8Array)) return null;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (detectHeic(bytes)) return 'heic';
  return null;
}

/** The format a file name claims by its extension (case-insensitive), or null when it is not an accepted one. */
export function uploadFormatFromName(fileName: string): DetectedImageFormat | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(String(fileName))?.[1]?.toLowerCase();
  if (ext === undefined || !(UPLOAD_RULES.formats as readonly string[]).includes(ext)) return null;
  return ext === 'jpg' ? 'jpeg' : (ext as DetectedImageFormat);
}

/** Validates the parsed `data` part of an upload: `{ modelID, type }` and nothing else. */
export function validateUploadData(data: unknown): FieldProblem[] {
  if (!isRecord(data))
    return [problem('', `the upload data must be a JSON object { modelID, type }; you gave ${describe(data)}`)];
  const problems = unknownKeyProblems(data, ['modelID', 'type'], '', 'image upload');
  if (!isNonEmptyString(data['modelID'])) {
    problems.push(
      problem('modelID', `modelID must be the id of one of your models; you gave ${describe(data['modelID'])}`),
    );
  }
  if (!(UPLOAD_RULES.types as readonly unknown[]).includes(data['type'])) {
    problems.push(
      problem(
        'type',
        `type must be modelInput (training image) or auxiliaryType (reference image); you gave ${describe(data['type'])}`,
      ),
    );
  }
  return problems;
}
