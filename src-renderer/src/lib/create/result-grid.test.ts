import { describe, expect, it } from 'vitest';
import { resultGrid } from './result-grid.ts';

// The canvas beside the form at 1920×1080 and at 1024×640 (nav and form taken off, padding and header too).
const WIDE = { width: 1328, height: 960, gap: 8 };
const SMALL = { width: 620, height: 520, gap: 8 };

describe('resultGrid', () => {
  it('draws one result as large as the visible height allows, in its shape', () => {
    const tall = resultGrid(1, 9 / 16, WIDE);
    expect(tall.columns).toBe(1);
    expect(tall.cellHeight).toBeGreaterThanOrEqual(900);
    expect(tall.cellHeight).toBeLessThanOrEqual(WIDE.height);
    const wide = resultGrid(1, 21 / 9, WIDE);
    expect(wide.cellWidth).toBeLessThanOrEqual(WIDE.width);
    expect(wide.cellWidth).toBeGreaterThanOrEqual(WIDE.width - 1);
  });

  it('gives four squares four equal cells that use the space: 2 × 2 when the height is the limit', () => {
    const four = resultGrid(4, 1, WIDE);
    expect(four.columns).toBe(2);
    expect(four.cellWidth).toBe(four.cellHeight);
    expect(four.cellWidth).toBeGreaterThanOrEqual(470);
    expect(four.cellHeight * 2 + 8).toBeLessThanOrEqual(WIDE.height);
    expect(resultGrid(4, 1, SMALL).cellWidth).toBeGreaterThanOrEqual(250);
  });

  it('puts tall results side by side and wide ones above each other', () => {
    expect(resultGrid(3, 9 / 16, WIDE).columns).toBe(3);
    expect(resultGrid(2, 21 / 9, WIDE).columns).toBe(1);
    expect(resultGrid(4, 9 / 16, WIDE).columns).toBe(4);
  });

  it('never leaves a column empty and never exceeds the width', () => {
    for (const n of [1, 2, 3, 4]) {
      for (const a of [9 / 16, 2 / 3, 1, 3 / 2, 21 / 9]) {
        for (const space of [WIDE, SMALL, { width: 200, height: 120, gap: 8 }]) {
          const g = resultGrid(n, a, space);
          expect(Math.ceil(n / g.columns) < Math.ceil(n / Math.max(1, g.columns - 1)) || g.columns === 1).toBe(true);
          expect(g.columns * g.cellWidth + (g.columns - 1) * space.gap).toBeLessThanOrEqual(Math.max(96, space.width));
        }
      }
    }
  });

  it('takes a bad shape as square', () => {
    expect(resultGrid(1, Number.NaN, SMALL)).toEqual(resultGrid(1, 1, SMALL));
  });
});
