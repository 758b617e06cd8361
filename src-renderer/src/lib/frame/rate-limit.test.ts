import { describe, expect, it } from 'vitest';
import {
  canCheckNow,
  extendWait,
  formatWait,
  rateLimitText,
  rateLimitedUntil,
  replaceWait,
  withoutChecks,
} from './rate-limit.ts';

const NOW = 1_000_000;

describe('rate-limit waits', () => {
  it('keeps the later wait of a source: a shorter Retry-After does not cut it short', () => {
    let waits = extendWait({}, 'jobs', NOW + 40_000);
    waits = extendWait(waits, 'jobs', NOW + 5_000);
    expect(waits.jobs).toBe(NOW + 40_000);
    waits = extendWait(waits, 'jobs', NOW + 60_000);
    expect(waits.jobs).toBe(NOW + 60_000);
  });

  it('is limited until the last active wait ends, and not at all once every wait is over', () => {
    const waits = extendWait(extendWait({}, 'jobs', NOW + 40_000), 'uploads', NOW + 10_000);
    expect(rateLimitedUntil(waits, NOW)).toBe(NOW + 40_000);
    expect(rateLimitedUntil(waits, NOW + 40_000)).toBeNull();
    expect(rateLimitedUntil({}, NOW)).toBeNull();
  });

  it('says what waits and for how long, soonest first', () => {
    expect(rateLimitText(extendWait({}, 'jobs', NOW + 40_000), NOW)).toBe('Rate limited · checking jobs again in 40 s');
    const several = extendWait(extendWait({}, 'training', NOW + 300_000), 'uploads', NOW + 2_500);
    expect(rateLimitText(several, NOW)).toBe(
      'Rate limited · uploading again in 3 s · checking training again in 5 min',
    );
    expect(rateLimitText(several, NOW + 10_000)).toBe('Rate limited · checking training again in 5 min');
    expect(rateLimitText(several, NOW + 300_000)).toBeNull();
  });

  it('a refresh that succeeds clears only its own wait', () => {
    const waits = extendWait(replaceWait({}, 'library', NOW + 60_000), 'jobs', NOW + 20_000);
    const cleared = replaceWait(waits, 'library', null);
    expect(cleared).toEqual({ jobs: NOW + 20_000 });
    expect(rateLimitText(cleared, NOW)).toBe('Rate limited · checking jobs again in 20 s');
  });

  it('rounds up to whole seconds and switches to minutes past 90 s', () => {
    expect(formatWait(1)).toBe('1 s');
    expect(formatWait(0)).toBe('1 s');
    expect(formatWait(40_000)).toBe('40 s');
    expect(formatWait(89_500)).toBe('90 s');
    expect(formatWait(91_000)).toBe('2 min');
  });

  it('offers "Check now" only while checking jobs or training waits, and ends only those waits', () => {
    const waits = extendWait(extendWait({}, 'jobs', NOW + 40_000), 'uploads', NOW + 10_000);
    expect(canCheckNow(waits, NOW)).toBe(true);
    expect(canCheckNow(waits, NOW + 40_000)).toBe(false);
    expect(canCheckNow(extendWait({}, 'uploads', NOW + 10_000), NOW)).toBe(false);
    expect(withoutChecks(extendWait(waits, 'training', NOW + 5_000))).toEqual({ uploads: NOW + 10_000 });
  });
});
