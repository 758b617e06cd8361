import { describe, expect, it } from 'vitest';
import { aggregateProgress } from '../core/host/progress.ts';
import { createTaskbarProgress, progressBarValue } from './taskbar-progress.ts';

describe('taskbar progress', () => {
  it('encodes hidden as -1 and clamps fractions', () => {
    expect(progressBarValue(null)).toBe(-1);
    expect(progressBarValue(Number.NaN)).toBe(-1);
    expect(progressBarValue(-0.5)).toBe(0);
    expect(progressBarValue(0.25)).toBe(0.25);
    expect(progressBarValue(3)).toBe(1);
  });

  it('draws on the window, skips repeats and survives a closed window', () => {
    const drawn: number[] = [];
    let destroyed = false;
    const win = { setProgressBar: (value: number) => void drawn.push(value), isDestroyed: () => destroyed };
    let current: typeof win | null = win;
    const progress = aggregateProgress(createTaskbarProgress(() => current));
    progress.update('upload-1', 50, 100);
    progress.update('upload-1', 50, 100);
    progress.update('download-2', 0, 300);
    progress.finish('upload-1');
    progress.finish('download-2');
    expect(drawn).toEqual([0.5, 0.125, 0, -1]);
    destroyed = true;
    progress.update('x', 1, 2);
    current = null;
    progress.update('x', 2, 2);
    expect(drawn).toEqual([0.5, 0.125, 0, -1]);
  });
});
