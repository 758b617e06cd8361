// What a failed generation POST means, and when to send it again (issue 28). The API has no
// idempotency key, so a request is sent again on its own only when the service certainly did not
// take it; a request whose fate is unknown is left to reconciliation (the job list decides).
//
// The spec (§7) defines no status codes for generation requests; these readings are HTTP's own:
// - `not_taken`: 429 (too many requests: refused before any work), 503 (service unavailable: not
//   handled), and a connection that never carried the request (refused, DNS, unreachable, a
//   DNS/connect/TLS timeout — core/api/unsent.ts). Sent again as the same row after Retry-After
//   (a floor) or capped full-jitter backoff.
// - `refused`: an answer that says no for good (invalid, auth, not found, conflict, other 4xx,
//   offline before sending): the row fails with the reason.
// - `unknown`: anything that may have reached the service: a timeout or reset after the request
//   left, 500/502/504 (a gateway may have passed it on), a cut-off or unreadable answer.
import type { ErrorInfo } from '../../contract/errors.ts';
import { errorInfoOf, retryDelay, type BackoffPolicy } from '../api/backoff.ts';
import { neverSent } from '../api/unsent.ts';

export type SubmitFailure = 'not_taken' | 'refused' | 'unknown';

/** Resends wait at least this long, at most a minute (a Retry-After over that is capped). */
export const RESEND_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 60_000 };
/** POSTs of one row in all; then the row fails ("the service stayed busy"). */
export const MAX_SENDS = 8;
/** A row whose request certainly never arrived is sent again on its own only this soon after its last try. */
export const RESEND_MAX_AGE_MS = 30 * 60_000;

const REFUSED_CODES = new Set(['validation', 'invalid_argument', 'auth', 'not_found', 'conflict', 'offline']);

export function classifySubmitFailure(error: unknown): SubmitFailure {
  const info = errorInfoOf(error);
  if (info.code === 'network') return neverSent(error) ? 'not_taken' : 'unknown';
  if (info.httpStatus === 429 || info.code === 'rate_limited') return 'not_taken';
  if (info.httpStatus === 503) return 'not_taken';
  if (REFUSED_CODES.has(info.code)) return 'refused';
  const status = info.httpStatus;
  if (status !== undefined && status >= 400 && status < 500) return 'refused';
  return 'unknown';
}

/** How long to wait before the `sends`+1-th POST (sends ≥ 1 already made). */
export function resendDelay(info: ErrorInfo, sends: number, random: () => number): number {
  // A Retry-After is a floor whatever the status said it with (429, or a 503 that names a time).
  const floored = info.retryAfterMs !== undefined && info.code !== 'rate_limited';
  return retryDelay(floored ? { ...info, code: 'rate_limited' } : info, Math.max(1, sends), random, RESEND_BACKOFF);
}

/** Why the row waits, in plain words ("the service is busy"). */
export function waitReason(info: ErrorInfo): string {
  if (info.httpStatus === 429 || info.code === 'rate_limited') return 'the service is busy';
  if (info.httpStatus === 503) return 'the service is unavailable for a moment';
  return 'the service could not be reached';
}

export function waitingMessage(info: ErrorInfo, delayMs: number): string {
  const seconds = Math.max(1, Math.round(delayMs / 1000));
  return `Waiting ${seconds} s: ${waitReason(info)}. It will be sent again on its own (nothing was created); you can cancel.`;
}

export function gaveUpMessage(info: ErrorInfo, sends: number): string {
  return `Not sent: ${waitReason(info)} after ${sends} tries, so nothing was created. Send it again later. (${info.message})`;
}
