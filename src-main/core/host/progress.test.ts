import { describe, expect, it } from 'vitest';
import { aggregateProgress } from './progress.ts';

function recorder() {
  const values: (number | null)[] = [];
  return { values, reporter: { set: (fraction: number | null) => void values.push(fraction) } };
}

describe('aggregateProgress', () => {
  it('adds concurrent transfers into one fraction and hides the bar when all are done', () => {
    const { values, reporter } = recorder();
    const progress = aggregateProgress(reporter);
    progress.update('a', 0, 100);
    progress.update('b', 100, 300);
    progress.update('a', 100, 100);
    progress.finish('b');
    progress.finish('a');
    expect(values).toEqual([0, 0.25, 0.5, 1, null]);
    expect(progress.current()).toBeNull();
  });

  it('shows 0 while sizes are unknown and ignores overshoot', () => {
    const { values, reporter } = recorder();
    const progress = aggregateProgress(reporter);
    progress.update('a', 500, null);
    progress.update('b', 900, 100);
    expect(values).toEqual([0, 1]);
  });

  it('does not redraw for changes the eye cannot see', () => {
    const { values, reporter } = recorder();
    const progress = aggregateProgress(reporter);
    progress.update('a', 1_000, 1_000_000);
    progress.update('a', 1_100, 1_000_000);
    progress.update('a', 5_000, 1_000_000);
    progress.finish('unknown');
    expect(values).toEqual([0.001, 0.005]);
  });
});
