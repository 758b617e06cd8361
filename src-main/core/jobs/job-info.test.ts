import { describe, expect, it } from 'vitest';
import { pollIntervalFor } from './job-info.ts';

const MINUTE = 60_000;

describe('pollIntervalFor', () => {
  it('uses the spec interval at first and slows down for jobs that run very long', () => {
    expect(pollIntervalFor('image', 0, 10 * MINUTE)).toBe(5_000);
    expect(pollIntervalFor('video', 0, 10 * MINUTE)).toBe(8_000);
    expect(pollIntervalFor('image', 0, 31 * MINUTE)).toBe(30_000);
    expect(pollIntervalFor('video', 0, 3 * 60 * MINUTE)).toBe(2 * MINUTE);
    expect(pollIntervalFor('training', 0, 0)).toBe(5 * MINUTE);
  });
});
