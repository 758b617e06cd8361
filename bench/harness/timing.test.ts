// Interleaved timing gives every side the same number of samples and really runs each side.
import { describe, expect, it } from 'vitest';
import { median } from './stats.ts';
import { timeInterleaved } from './timing.ts';

describe('timeInterleaved', () => {
  it('runs warm-up plus reps calls of every side and returns one sample per rep', () => {
    const calls = { a: 0, b: 0, c: 0 };
    const samples = timeInterleaved({
      sides: { a: () => (calls.a += 1), b: () => (calls.b += 1), c: () => (calls.c += 1) },
      reps: 9,
      warmup: 2,
    });
    expect(calls).toEqual({ a: 11, b: 11, c: 11 });
    expect(samples.a).toHaveLength(9);
    expect(samples.c.every((ms) => ms >= 0)).toBe(true);
  });

  it('rotates which side goes first', () => {
    const order: string[] = [];
    timeInterleaved({ sides: { a: () => order.push('a'), b: () => order.push('b') }, reps: 2, warmup: 0 });
    expect(order).toEqual(['a', 'b', 'b', 'a']);
  });

  it('measures a slower side as slower', () => {
    const spin = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    // Medians and a 20× gap: a preempted sample on a busy machine must not decide the outcome.
    const samples = timeInterleaved({ sides: { fast: () => spin(0.1), slow: () => spin(2) }, reps: 9, warmup: 0 });
    expect(median(samples.slow)!).toBeGreaterThan(median(samples.fast)!);
    expect(median(samples.slow)!).toBeGreaterThanOrEqual(2);
  });
});
