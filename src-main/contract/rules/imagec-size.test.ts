// imagec-2 size resolution: the pixel-budget scheme and the spec's three dimension constraints.
import { describe, expect, it } from 'vitest';
import { explainImagecSize, imagecDimensionsProblem, resolveImagecSize } from './imagec-size.ts';
import { IMAGE_ASPECT_RATIOS } from './image-models.ts';

describe('resolveImagecSize', () => {
  it.each([
    ['1K', '1:1', 1024, 1024],
    ['1K', '16:9', 1360, 768],
    ['2K', '1:1', 2048, 2048],
    ['2K', '21:9', 3120, 1328],
    ['4K', '16:9', 3840, 2160],
    ['4K', '9:16', 2160, 3840],
    ['4K', '1:1', 2880, 2880],
  ])('%s at %s is %i×%i', (size, ratio, width, height) => {
    expect(resolveImagecSize(size, ratio)).toEqual({ width, height });
  });

  it('refuses 4K at 21:9 (long edge past 3840) and says why', () => {
    expect(resolveImagecSize('4K', '21:9')).toBeNull();
    const explained = explainImagecSize('4K', '21:9');
    expect(explained.ok).toBe(false);
    if (!explained.ok) expect(explained.reason).toContain('4384×1872');
  });

  it.each([
    ['3K', '1:1'],
    ['4k', '1:1'],
    ['1K', 'square'],
    ['1K', '0:1'],
    ['1K', '4:1'], // wider than 3:1
  ])('refuses %s at %s', (size, ratio) => {
    expect(resolveImagecSize(size, ratio)).toBeNull();
  });

  it('every accepted combination meets the spec constraints and stays within its pixel budget', () => {
    const budgets: Record<string, number> = { '1K': 1024 * 1024, '2K': 2048 * 2048, '4K': 3840 * 2160 };
    let accepted = 0;
    for (const size of Object.keys(budgets)) {
      for (const ratio of IMAGE_ASPECT_RATIOS) {
        const dims = resolveImagecSize(size, ratio);
        if (!dims) continue;
        accepted += 1;
        expect(Math.max(dims.width, dims.height)).toBeLessThanOrEqual(3840);
        expect(Math.max(dims.width, dims.height) / Math.min(dims.width, dims.height)).toBeLessThanOrEqual(3);
        expect(dims.width % 16).toBe(0);
        expect(dims.height % 16).toBe(0);
        expect(dims.width * dims.height).toBeLessThanOrEqual(budgets[size]!);
      }
    }
    expect(accepted).toBe(3 * IMAGE_ASPECT_RATIOS.length - 1);
  });
});

describe('imagecDimensionsProblem', () => {
  it.each([
    [3840, 2160, null],
    [3856, 1024, 'long edge'],
    [3200, 1024, 'wider than 3:1'],
    [1000, 1000, 'multiples of 16'],
    [0, 1024, 'empty edge'],
  ])('%i×%i', (w, h, expected) => {
    const problem = imagecDimensionsProblem(w, h);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toContain(expected);
  });
});
