// Side-by-side timing: Atelier's code and its baseline run in turn in the same loop, so the noise
// of a shared machine (other processes, CPU frequency) lands on every side alike.
import { performance } from 'node:perf_hooks';

export interface InterleavedOptions<K extends string> {
  sides: Record<K, () => unknown>;
  reps: number;
  /** Untimed rounds first (JIT, page cache, prepared statements). Default min(20, reps). */
  warmup?: number;
}

/** Milliseconds per call of each side; the starting side rotates every repetition. */
export function timeInterleaved<K extends string>(options: InterleavedOptions<K>): Record<K, number[]> {
  const names = Object.keys(options.sides) as K[];
  const warmup = options.warmup ?? Math.min(20, options.reps);
  for (let i = 0; i < warmup; i += 1) for (const name of names) options.sides[name]();
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < options.reps; i += 1) {
    for (let j = 0; j < names.length; j += 1) {
      const name = names[(i + j) % names.length]!;
      const fn = options.sides[name];
      const start = performance.now();
      fn();
      samples[name].push(performance.now() - start);
    }
  }
  return samples;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
