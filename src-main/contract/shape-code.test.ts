import { describe, expect, it } from 'vitest';
import { layoutShape, SHAPE_RANGE, shapeCode, shapeOfCode } from './shape-code.ts';

describe('shape codes', () => {
  it('keeps every shape within 0.6 % and in one byte', () => {
    // A grid of sizes from 1 px to 20,000 px on both sides (contract tests use no property library).
    for (let w = 1; w <= 20_000; w += 97) {
      for (let h = 1; h <= 20_000; h += 89) {
        const code = shapeCode(w, h);
        const clamped = Math.min(SHAPE_RANGE.max, Math.max(SHAPE_RANGE.min, w / h));
        if (code < 1 || code > 255 || Math.abs(shapeOfCode(code, 1) / clamped - 1) >= 0.006)
          throw new Error(`${w}×${h}: code ${code} stands for ${shapeOfCode(code, 1)}, not ${clamped}`);
      }
    }
  });

  it('says "unknown" for a missing or empty size', () => {
    expect([shapeCode(null, 10), shapeCode(10, 0), shapeCode(-1, 5)]).toEqual([0, 0, 0]);
    expect(shapeOfCode(0, 16 / 9)).toBe(16 / 9);
  });

  it('gives the layout the same value from a code as from the item', () => {
    for (const [w, h] of [
      [1024, 1024],
      [1920, 1080],
      [1080, 1920],
      [2048, 880],
      [1600, 1200],
      [1, 50],
    ]) {
      expect(layoutShape(w! / h!)).toBe(shapeOfCode(shapeCode(w!, h!), 0));
    }
    expect(layoutShape(1)).toBeCloseTo(1, 10);
  });
});
