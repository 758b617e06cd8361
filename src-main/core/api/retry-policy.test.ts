// Retry policy math and decisions: backoff ceilings, full jitter, Retry-After, retry classes.
import { describe, expect, it } from 'vitest';
import {
  backoffCeilingMs,
  decideRetry,
  DEFAULT_RETRY_POLICY as P,
  fullJitterMs,
  parseRetryAfterMs,
  type AttemptFailure,
} from './retry-policy.ts';

const s503: AttemptFailure = { kind: 'status', status: 503 };
const refused: AttemptFailure = { kind: 'network', unsent: true };
const reset: AttemptFailure = { kind: 'network', unsent: false };

describe('backoff', () => {
  it('doubles from the base and stops at the cap', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7].map((n) => backoffCeilingMs(n, P));
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffCeilingMs(1000, P)).toBe(8000);
  });

  it('full jitter spans [0, ceiling) and follows the random source', () => {
    expect(fullJitterMs(3, P, () => 0)).toBe(0);
    expect(fullJitterMs(3, P, () => 0.5)).toBe(1000);
    expect(fullJitterMs(3, P, () => 0.9999)).toBe(1999);
    // A misbehaving random source cannot push the wait past the ceiling.
    expect(fullJitterMs(3, P, () => 7)).toBe(2000);
    expect(fullJitterMs(3, P, () => -1)).toBe(0);
  });
});

describe('decideRetry', () => {
  it('retries reads on 429, 5xx, network failures and cut-off bodies', () => {
    for (const failure of [
      s503,
      { kind: 'status', status: 429 },
      refused,
      reset,
      { kind: 'truncated' },
    ] as AttemptFailure[]) {
      expect(decideRetry('read', failure, 1, P, () => 0.5)).toEqual({ retry: true, delayMs: 250 });
    }
  });

  it('does not retry reads on other statuses or unusable answers', () => {
    for (const status of [400, 401, 403, 404, 409, 413, 422, 200]) {
      expect(decideRetry('read', { kind: 'status', status }, 1, P).retry).toBe(false);
    }
    expect(decideRetry('read', { kind: 'final' }, 1, P)).toEqual({ retry: false, reason: 'not-retryable' });
  });

  it('never retries job-creating requests, not even when nothing was sent', () => {
    for (const failure of [s503, refused, reset, { kind: 'truncated' }] as AttemptFailure[]) {
      expect(decideRetry('never', failure, 1, P)).toEqual({ retry: false, reason: 'not-retryable' });
    }
  });

  it('retries unsent-only requests exactly when nothing reached the server', () => {
    expect(decideRetry('unsent-only', refused, 1, P, () => 0).retry).toBe(true);
    expect(decideRetry('unsent-only', reset, 1, P).retry).toBe(false);
    expect(decideRetry('unsent-only', s503, 1, P).retry).toBe(false);
    expect(decideRetry('unsent-only', { kind: 'status', status: 429, retryAfterMs: 1 }, 1, P).retry).toBe(false);
  });

  it('gives up after maxAttempts attempts in total', () => {
    expect(decideRetry('read', s503, P.maxAttempts - 1, P).retry).toBe(true);
    expect(decideRetry('read', s503, P.maxAttempts, P)).toEqual({ retry: false, reason: 'attempts-exhausted' });
  });

  it('waits at least Retry-After, even when the jittered backoff is shorter', () => {
    const failure: AttemptFailure = { kind: 'status', status: 429, retryAfterMs: 3000 };
    expect(decideRetry('read', failure, 1, P, () => 0)).toEqual({ retry: true, delayMs: 3000 });
    // …and the backoff when it is longer.
    const short: AttemptFailure = { kind: 'status', status: 503, retryAfterMs: 10 };
    expect(decideRetry('read', short, 4, { ...P, maxAttempts: 9 }, () => 0.5)).toEqual({ retry: true, delayMs: 2000 });
  });

  it('does not wait inside the call for a Retry-After beyond the cap', () => {
    const failure: AttemptFailure = { kind: 'status', status: 429, retryAfterMs: P.maxRetryAfterMs + 1 };
    expect(decideRetry('read', failure, 1, P)).toEqual({ retry: false, reason: 'retry-after-too-long' });
    const atCap: AttemptFailure = { kind: 'status', status: 429, retryAfterMs: P.maxRetryAfterMs };
    expect(decideRetry('read', atCap, 1, P, () => 0)).toEqual({ retry: true, delayMs: P.maxRetryAfterMs });
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');
  it('reads delay-seconds, including decimals and padding', () => {
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('1.5', now)).toBe(1500);
    expect(parseRetryAfterMs(['7', '9'], now)).toBe(7000);
  });

  it('reads an HTTP-date relative to now; a past date means no wait', () => {
    expect(parseRetryAfterMs('Sat, 01 Mar 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Sat, 01 Mar 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    for (const value of [undefined, '', '-3', 'soon', '12abc', '1e3']) {
      expect(parseRetryAfterMs(value, now)).toBeUndefined();
    }
  });
});
