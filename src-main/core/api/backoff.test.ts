// shortRetryDelay: which failed reads a poll round repeats at once, and how long it waits first.
import { describe, expect, it } from 'vitest';
import type { ErrorInfo } from '../../contract/errors.ts';
import { ROUND_RETRY, shortRetryDelay } from './backoff.ts';

const info = (code: ErrorInfo['code'], extra: Partial<ErrorInfo> = {}): ErrorInfo => ({
  code,
  message: code,
  ...extra,
});
const draws = [0, 0.3, 0.7, 0.999];

describe('shortRetryDelay', () => {
  it('repeats transient failures after short full-jitter waits, up to the attempt limit', () => {
    for (const code of ['server', 'network', 'malformed_response'] as const) {
      for (const r of draws) {
        const first = shortRetryDelay(info(code), 1, () => r)!;
        const second = shortRetryDelay(info(code), 2, () => r)!;
        expect(first).toBeGreaterThan(0);
        expect(first).toBeLessThanOrEqual(ROUND_RETRY.baseMs);
        expect(second).toBeLessThanOrEqual(2 * ROUND_RETRY.baseMs);
      }
      expect(shortRetryDelay(info(code), ROUND_RETRY.attempts, () => 0.5)).toBeNull();
    }
    // A 5xx with an unusual code is transient too (the same classifier as every background failure).
    expect(shortRetryDelay(info('internal', { httpStatus: 502 }), 1, () => 0.5)).not.toBeNull();
  });

  it('waits out a short Retry-After, and leaves a long or missing one to the loop', () => {
    expect(shortRetryDelay(info('rate_limited', { retryAfterMs: 2_000 }), 1, () => 0.9)).toBe(2_000);
    expect(shortRetryDelay(info('rate_limited', { retryAfterMs: 500 }), 1, () => 0)).toBe(500);
    expect(shortRetryDelay(info('rate_limited', { retryAfterMs: 2_001 }), 1, () => 0.5)).toBeNull();
    expect(shortRetryDelay(info('rate_limited', { retryAfterMs: 45_000 }), 1, () => 0.5)).toBeNull();
    expect(shortRetryDelay(info('rate_limited'), 1, () => 0.5)).toBeNull();
  });

  it('never repeats what repeating cannot fix', () => {
    for (const code of ['auth', 'not_found', 'validation', 'internal'] as const)
      expect(shortRetryDelay(info(code), 1, () => 0.5)).toBeNull();
  });
});
