// The one backoff policy for background work (polls, training checks, uploads, downloads):
// the client's capped full-jitter backoff on a wall-clock schedule, Retry-After as a
// floor, and which failures are worth waiting out.
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import { backoffCeilingMs, DEFAULT_RETRY_POLICY, fullJitterMs } from './retry-policy.ts';

export interface BackoffPolicy {
  /** Upper bound of the first retry's delay. */
  baseMs: number;
  /** No delay ever exceeds this, a Retry-After's included. */
  capMs: number;
}

/**
 * The one backoff table of background work: polls, training checks, uploads and downloads (2 s
 * doubling, capped at 5 min); a poll round's own short retries use ROUND_RETRY below.
 */
export const BACKGROUND_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 5 * 60_000 };

/**
 * Full jitter from the client's retry policy (uniform in [0, min(cap, base·2^(failures-1))]), so
 * a crowd of clients or jobs that failed together does not come back together. `failures` counts
 * consecutive failures (≥ 1). A small floor keeps a zero draw from becoming a busy loop.
 */
export function fullJitterDelay(
  failures: number,
  random: () => number,
  policy: BackoffPolicy = BACKGROUND_BACKOFF,
): number {
  const options = { ...DEFAULT_RETRY_POLICY, baseDelayMs: policy.baseMs, maxDelayMs: policy.capMs };
  const floor = Math.min(250, backoffCeilingMs(failures, options));
  return Math.max(floor, fullJitterMs(Math.max(1, failures), options, random));
}

export type FailureKind = 'rate_limited' | 'transient' | 'auth' | 'not_found' | 'permanent';

/** The error as data, whatever was thrown (an AppError from the client, or a stray Error). */
export function errorInfoOf(error: unknown): ErrorInfo {
  if (error instanceof AppError) return error.info;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message };
}

/** How the engine treats a failed background request. */
export function classifyFailure(info: ErrorInfo): FailureKind {
  switch (info.code) {
    case 'rate_limited':
      return 'rate_limited';
    case 'server':
    case 'network':
    case 'malformed_response':
    case 'offline':
      return 'transient';
    case 'auth':
      return 'auth';
    case 'not_found':
      return 'not_found';
    default:
      return info.httpStatus !== undefined && info.httpStatus >= 500 ? 'transient' : 'permanent';
  }
}

/**
 * The wait before the next attempt: jittered backoff, never shorter than a reasonable Retry-After
 * and never longer than the backoff's own maximum. A Retry-After beyond that maximum (a broken or
 * hostile `Retry-After: 99999999`) is not honoured: the backoff decides instead, as openai-node does
 * with any Retry-After it finds unreasonable, so no answer can stop background work for good.
 */
export function retryDelay(
  info: ErrorInfo,
  failures: number,
  random: () => number,
  policy: BackoffPolicy = BACKGROUND_BACKOFF,
): number {
  const jittered = fullJitterDelay(failures, random, policy);
  const retryAfterMs = info.retryAfterMs;
  if (info.code === 'rate_limited' && typeof retryAfterMs === 'number' && retryAfterMs > 0) {
    if (retryAfterMs > policy.capMs) return Math.min(policy.capMs, Math.max(jittered, policy.baseMs));
    // Honour it as a floor, plus a little jitter so every client does not return at once.
    const spread = Math.round(random() * Math.min(1_000, retryAfterMs / 10));
    return Math.min(policy.capMs, Math.ceil(retryAfterMs) + spread);
  }
  return jittered;
}

/** How a read inside a poll round is repeated on its own: a few attempts, short jittered waits. */
export interface RoundRetryPolicy extends BackoffPolicy {
  /** Attempts in total, the first included. */
  attempts: number;
}

/** 3 attempts; waits ≤ 250 ms, ≤ 500 ms (full jitter); a Retry-After of up to 2 s is waited out. */
export const ROUND_RETRY: RoundRetryPolicy = { attempts: 3, baseMs: 250, capMs: 2_000 };

/**
 * The wait before repeating an idempotent read at once (inside a poll round) after `attempt`
 * failed attempts, or null when it is not repeated there and the caller's loop decides: by the
 * same classification as every background failure, transient failures (5xx, network, cut-off or
 * unreadable answers) get full-jitter waits, a 429 whose Retry-After is within the policy's cap
 * is waited out; a longer or missing Retry-After, auth and everything else are not repeated.
 */
export function shortRetryDelay(
  info: ErrorInfo,
  attempt: number,
  random: () => number,
  policy: RoundRetryPolicy = ROUND_RETRY,
): number | null {
  if (attempt >= policy.attempts) return null;
  const kind = classifyFailure(info);
  if (kind === 'transient') return fullJitterDelay(attempt, random, policy);
  const retryAfterMs = info.retryAfterMs;
  if (kind === 'rate_limited' && typeof retryAfterMs === 'number' && retryAfterMs >= 0 && retryAfterMs <= policy.capMs)
    return retryDelay(info, attempt, random, policy);
  return null;
}
