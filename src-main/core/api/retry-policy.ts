// THE retry policy of the service client, in one place: which failures of which requests are
// retried, how long to wait (capped exponential backoff with full jitter, Retry-After honoured),
// and when to give up and hand a long Retry-After back to the caller (the job scheduler).

/**
 * How a request may be repeated:
 * - `read`: safe to repeat (GETs that only read): 429, 5xx, network failures and cut-off bodies.
 * - `unsent-only`: repeated only when the request provably never reached the server (uploads,
 *   model create/update, deletes).
 * - `never`: creates work the API cannot de-duplicate (generation, upscaling, video, training).
 */
export type RetryClass = 'read' | 'unsent-only' | 'never';

/** What went wrong with one attempt, as the policy needs to see it. */
export type AttemptFailure =
  | { kind: 'status'; status: number; retryAfterMs?: number }
  /** `unsent`: failed before a connection existed (refused, DNS, connect timeout): nothing was sent. */
  | { kind: 'network'; unsent: boolean }
  /** The answer started but its body was cut off. */
  | { kind: 'truncated' }
  /** A complete answer that is not usable; repeating it is unlikely to help. */
  | { kind: 'final' };

export interface RetryPolicyOptions {
  /** Attempts in total, including the first. */
  maxAttempts: number;
  /** Ceiling of the first backoff; doubles each attempt. */
  baseDelayMs: number;
  /** No single backoff ceiling exceeds this. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for inside the call: the error carries it instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicyOptions = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'not-retryable' | 'attempts-exhausted' | 'retry-after-too-long' };

/** The upper bound of the wait after `attempt` failed attempts (1-based): base·2^(attempt−1), capped. */
export function backoffCeilingMs(attempt: number, options: RetryPolicyOptions): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.min(exponent, 30));
}

/** Full jitter: uniform in [0, ceiling), so many clients failing together do not retry together. */
export function fullJitterMs(attempt: number, options: RetryPolicyOptions, random: () => number): number {
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * backoffCeilingMs(attempt, options));
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

function retryable(retryClass: RetryClass, failure: AttemptFailure): boolean {
  switch (retryClass) {
    case 'never':
      return false;
    case 'unsent-only':
      return failure.kind === 'network' && failure.unsent;
    case 'read':
      return (
        failure.kind === 'network' ||
        failure.kind === 'truncated' ||
        (failure.kind === 'status' && isRetryableStatus(failure.status))
      );
  }
}

/** Whether to try again after `attempt` failed attempts (1-based), and how long to wait first. */
export function decideRetry(
  retryClass: RetryClass,
  failure: AttemptFailure,
  attempt: number,
  options: RetryPolicyOptions = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): RetryDecision {
  if (!retryable(retryClass, failure)) return { retry: false, reason: 'not-retryable' };
  const retryAfterMs = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  if (retryAfterMs !== undefined && retryAfterMs > options.maxRetryAfterMs) {
    return { retry: false, reason: 'retry-after-too-long' };
  }
  if (attempt >= options.maxAttempts) return { retry: false, reason: 'attempts-exhausted' };
  const jittered = fullJitterMs(attempt, options, random);
  return { retry: true, delayMs: retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered) };
}

/**
 * Retry-After as milliseconds from now: delay-seconds (`120`, decimals tolerated) or an HTTP-date.
 * Undefined when absent or unreadable; a date in the past means 0.
 */
export function parseRetryAfterMs(
  value: string | string[] | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  if (!/[a-z]/i.test(raw)) return undefined;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * The longest Retry-After taken at its word. The engine's own backoff never waits longer than
 * 5 minutes either; past this a Retry-After is treated as absent and the caller's backoff decides
 * (openai-node likewise ignores any it finds unreasonable), so one answer cannot stop work for good.
 */
export const MAX_REASONABLE_RETRY_AFTER_MS = 5 * 60_000;

/** The Retry-After when it is reasonable (0 … 5 min), else undefined. */
export function reasonableRetryAfterMs(ms: number | undefined): number | undefined {
  return ms !== undefined && Number.isFinite(ms) && ms <= MAX_REASONABLE_RETRY_AFTER_MS ? ms : undefined;
}

/** The waiting part of the policy, injectable so tests neither sleep nor depend on chance. */
export interface RetryTiming {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
  now(): number;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const realTiming: RetryTiming = { sleep: abortableSleep, random: Math.random, now: Date.now };
