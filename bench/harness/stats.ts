// Summary statistics of benchmark samples: median, percentiles, mean and safe ratios.

/** Sorted copy; NaN and infinities are dropped (a failed sample is not a number). */
function sortedFinite(values: readonly number[]): number[] {
  return values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
}

/**
 * The p-th percentile (0..100) by linear interpolation between closest ranks, so p50 of an even
 * count is the mean of the two middle values. null for no samples.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 100)) throw new RangeError('percentile wants p between 0 and 100');
  const sorted = sortedFinite(values);
  if (sorted.length === 0) return null;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lo = sorted[low]!;
  const hi = sorted[high]!;
  return lo + (hi - lo) * (rank - low);
}

export const median = (values: readonly number[]): number | null => percentile(values, 50);

export function mean(values: readonly number[]): number | null {
  const finite = sortedFinite(values);
  return finite.length === 0 ? null : finite.reduce((a, b) => a + b, 0) / finite.length;
}

export function max(values: readonly number[]): number | null {
  const finite = sortedFinite(values);
  return finite.length === 0 ? null : finite[finite.length - 1]!;
}

/** a / b; null when either is missing or b is 0 (a ratio to nothing means nothing). */
export function ratio(a: number | null, b: number | null): number | null {
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return a / b;
}

export interface Summary {
  n: number;
  median: number | null;
  p95: number | null;
  min: number | null;
  max: number | null;
  mean: number | null;
}

export function summarize(values: readonly number[]): Summary {
  const finite = sortedFinite(values);
  return {
    n: finite.length,
    median: median(finite),
    p95: percentile(finite, 95),
    min: finite[0] ?? null,
    max: max(finite),
    mean: mean(finite),
  };
}
