// Checks that run before a request leaves the machine: ids as safe path segments, generation
// bodies through the shared rules (validate, then normalize), list options and job date ranges.
import { AppError } from '../../contract/errors.ts';
import { normalize, validate, type GenerationRequest } from '../../contract/rules/index.ts';
import { IMAGE_LIST_FILTERS, JOB_LIST_RANGE_MS, PAGE_SIZE } from '../../contract/service.ts';
import { redact } from '../log/redact.ts';

const MAX_ID_LENGTH = 512;

const invalid = (field: string, message: string): AppError =>
  new AppError({ code: 'invalid_argument', field, message });

/** An id as one encoded path segment; refuses what could change the path (empty, `.`, `..`, controls). */
export function pathSegment(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, `${field} must be a non-empty id.`);
  if (value.length > MAX_ID_LENGTH) throw invalid(field, `${field} is too long to be an id.`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw invalid(field, `${field} contains control characters.`);
  if (value === '.' || value === '..') throw invalid(field, `${field} cannot be "${value}".`);
  return encodeURIComponent(value);
}

/**
 * Runs the shared rules; a body that breaks one never leaves the machine. Returns the normalized
 * body: only the fields and option group the chosen model accepts, with the service's forced values.
 */
export function checkedGenerationBody(
  kind: GenerationRequest['kind'],
  body: unknown,
  secrets: readonly (string | null | undefined)[] = [],
): unknown {
  const request = { kind, body } as GenerationRequest;
  // Messages quote what was given; whatever that was, a secret must not come back out in them.
  const problems = validate(request).map((p) => ({ field: p.field, message: redact(p.message, secrets) }));
  const first = problems[0];
  if (first) {
    const what = kind === 'upscale' ? 'upscaling' : `${kind} generation`;
    throw new AppError({
      code: 'validation',
      message: `The ${what} request was not sent: ${problems.map((p) => p.message).join('; ')}`,
      field: first.field,
      fields: problems.map((p) => ({ field: p.field, message: p.message })),
    });
  }
  return normalize(request).body;
}

export function checkPageSize(pageSize: unknown): number | undefined {
  if (pageSize === undefined) return undefined;
  if (
    typeof pageSize !== 'number' ||
    !Number.isInteger(pageSize) ||
    pageSize < PAGE_SIZE.min ||
    pageSize > PAGE_SIZE.max
  ) {
    throw invalid('pageSize', `pageSize must be a whole number from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}.`);
  }
  return pageSize;
}

export function checkImageFilter(imageType: unknown): string | undefined {
  if (imageType === undefined) return undefined;
  if (!(IMAGE_LIST_FILTERS as readonly unknown[]).includes(imageType)) {
    throw invalid('imageType', `imageType must be one of ${IMAGE_LIST_FILTERS.join(', ')}.`);
  }
  return imageType as string;
}

export function checkVideoFilter(videoType: unknown): string | undefined {
  if (videoType === undefined) return undefined;
  if (typeof videoType !== 'string' || videoType.trim() === '')
    throw invalid('videoType', 'videoType must be a non-empty string.');
  return videoType;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function timeOf(field: 'start' | 'end', value: string | Date | undefined): { text: string; ms: number } | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw invalid(field, `${field} is not a valid date.`);
    return { text: value.toISOString(), ms };
  }
  const ms = typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw invalid(field, `${field} must be an RFC 3339 time such as 2025-05-01T12:00:00Z.`);
  return { text: value, ms };
}

export interface JobRange {
  start?: string;
  end?: string;
}

/**
 * The spec allows at most 7 days and (by sense) no end before start; refused here, naming the field.
 * With only `start`, the range runs to now, so it is checked against `nowMs`.
 */
export function checkJobRange(range: { start?: string | Date; end?: string | Date }, nowMs: number): JobRange {
  const start = timeOf('start', range.start);
  const end = timeOf('end', range.end);
  if (start && end && end.ms < start.ms) throw invalid('end', 'end must not be before start.');
  const until = end?.ms ?? nowMs;
  if (start && until - start.ms > JOB_LIST_RANGE_MS.max) {
    throw invalid('start', 'The job list range from start to end must not exceed 7 days.');
  }
  return { ...(start ? { start: start.text } : {}), ...(end ? { end: end.text } : {}) };
}
