// What a failed transfer means, for the download runner to act on: the signed link is dead (a
// fresh one is asked for), the disk is full, the step was stopped, the host only dripped, the
// answer cannot be taken (refused by the media scope, too large), or a `failure` described as an
// ErrorInfo (network trouble, an HTTP status, a cut body) that the one classifier judges
// (api/backoff.ts classifyFailure, download-runner.ts), as it judges every background request.
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorInfo } from '../../../contract/errors.ts';
import { codeForStatus } from '../../api/errors.ts';
import { parseRetryAfterMs, reasonableRetryAfterMs } from '../../api/retry-policy.ts';
import { isDiskFull } from '../../host/disk-full.ts';
import { MEDIA_REFUSED } from '../media/media-http.ts';

export type DownloadErrorKind =
  /** Judged by the one classifier from `info`: network trouble, a 5xx or 429, a cut body… */
  | 'failure'
  /** 401/403/404/410 from a media link: the signed link is dead; needs a fresh link. */
  | 'link'
  | 'disk_full'
  | 'aborted'
  /** Almost nothing arrived for a while (a drip): try later, and it does not count as progress. */
  | 'stalled'
  /** The answer cannot be taken, whatever a retry would bring (refused, larger than allowed). */
  | 'fatal';

export class DownloadError extends Error {
  readonly kind: DownloadErrorKind;
  /** The failure as data: the code the classifier judges, the HTTP status and Retry-After when answered. */
  readonly info: ErrorInfo;
  constructor(kind: DownloadErrorKind, message: string, info: Omit<ErrorInfo, 'message'> = { code: 'network' }) {
    super(message);
    this.name = 'DownloadError';
    this.kind = kind;
    this.info = { ...info, message };
  }

  get httpStatus(): number | undefined {
    return this.info.httpStatus;
  }
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A stream or connection failure as a DownloadError. */
export function streamError(error: unknown, signal: AbortSignal): DownloadError {
  if (error instanceof DownloadError) return error;
  if (signal.aborted) return new DownloadError('aborted', 'The download was stopped.');
  if (isDiskFull(error)) return new DownloadError('disk_full', 'The disk is full.');
  const refused = [error, (error as { cause?: unknown } | null)?.cause].find(
    (e) => (e as { code?: unknown } | null)?.code === MEDIA_REFUSED,
  );
  if (refused) return new DownloadError('fatal', (refused as Error).message);
  const message = error instanceof Error ? error.message : String(error);
  return new DownloadError('failure', `The connection failed: ${message.slice(0, 200)}`);
}

/**
 * A media answer that is not the body: a dead link's statuses ask for a fresh link; any other
 * status is worded as the service client words it (codeForStatus, Retry-After), for the one
 * classifier to judge: a 5xx or a 429 is tried again later, another 4xx is not.
 */
export function statusError(status: number, headers: IncomingHttpHeaders = {}, what = 'The media host'): DownloadError {
  if (status === 401 || status === 403 || status === 404 || status === 410) {
    return new DownloadError(
      'link',
      `${what === 'The media host' ? 'The media link' : what} answered ${status}; it may have expired.`,
      {
        code: 'not_found',
        httpStatus: status,
      },
    );
  }
  const code = codeForStatus(status);
  const retryAfterMs = reasonableRetryAfterMs(parseRetryAfterMs(header(headers, 'retry-after')));
  const info: Omit<ErrorInfo, 'message'> = { code, httpStatus: status };
  if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs;
  return new DownloadError('failure', `${what} answered ${status}.`, info);
}
