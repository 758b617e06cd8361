// The harness math every figure rests on: percentiles, medians, ratios and summaries.
import { describe, expect, it } from 'vitest';
import { max, mean, median, percentile, ratio, summarize } from './stats.ts';

describe('percentile', () => {
  it('interpolates between closest ranks', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 95)).toBeCloseTo(48);
    expect(percentile([5], 95)).toBe(5);
    expect(percentile([3, 1, 2], 0)).toBe(1);
    expect(percentile([3, 1, 2], 100)).toBe(3);
  });

  it('does not depend on the order of the samples', () => {
    expect(percentile([9, 1, 5, 3, 7], 50)).toBe(5);
  });

  it('ignores samples that are not finite numbers and says null for none', () => {
    expect(median([NaN, 4, Infinity, 2])).toBe(3);
    expect(median([])).toBeNull();
    expect(median([NaN])).toBeNull();
  });

  it('refuses a p outside 0..100', () => {
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
  });
});

describe('mean, max and ratio', () => {
  it('computes the mean and max of finite samples', () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(max([1, 7, 3])).toBe(7);
    expect(mean([])).toBeNull();
  });

  it('divides, and says null for a missing side or a zero baseline', () => {
    expect(ratio(1, 4)).toBe(0.25);
    expect(ratio(null, 4)).toBeNull();
    expect(ratio(3, 0)).toBeNull();
    expect(ratio(3, null)).toBeNull();
  });
});

describe('summarize', () => {
  it('reports count, median, p95, min, max and mean together', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarize(values)).toEqual({ n: 100, median: 50.5, p95: 95.05, min: 1, max: 100, mean: 50.5 });
  });
});
