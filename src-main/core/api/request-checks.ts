// Checks that run before a request leaves the machine: list options and job date ranges (ids in
// paths: path.ts; generation requests: generation-request.ts).
import { AppError } from '../../contract/errors.ts';
import { IMAGE_LIST_FILTERS, JOB_LIST_RANGE_MS, PAGE_SIZE } from '../../contract/service.ts';

const invalid = (field: string, message: string): AppError =>
  new AppError({ code: 'invalid_argument', field, message });

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
