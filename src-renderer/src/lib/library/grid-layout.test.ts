import { describe, expect, it } from 'vitest';
import { gridLayout, slotPosition, visibleSlots } from './grid-layout.ts';

const metrics = { minTile: 160, gap: 8, pad: 16 };

describe('gridLayout', () => {
  it('fits as many columns of at least minTile as the width allows and stretches them to fill it', () => {
    const layout = gridLayout(1000, 100, metrics);
    // inner 968: 5 × 160 + 4 × 8 = 832 fits, 6 × 160 + 5 × 8 = 1000 does not
    expect(layout.columns).toBe(5);
    expect(layout.tile * 5 + 8 * 4).toBeCloseTo(968);
    expect(layout.rows).toBe(20);
  });

  it('keeps one column in a narrow viewport and no height without slots', () => {
    expect(gridLayout(100, 3, metrics).columns).toBe(1);
    expect(gridLayout(1000, 0, metrics).height).toBe(0);
  });

  it('gives 50,000 slots a finite content height browsers can scroll', () => {
    const layout = gridLayout(1080, 50_000, metrics);
    expect(layout.height).toBeLessThan(10_000_000);
    expect(layout.rows * layout.columns).toBeGreaterThanOrEqual(50_000);
  });
});

describe('visibleSlots', () => {
  it('renders only the rows in view plus the overscan', () => {
    const layout = gridLayout(1000, 50_000, metrics);
    const { first, last } = visibleSlots(layout, 50_000, metrics.pad + layout.rowHeight * 100, 600, metrics.pad, 2);
    expect(first).toBe(98 * layout.columns);
    expect(last - first + 1).toBeLessThan(layout.columns * 10);
  });

  it('stops at the last slot at the end of the list', () => {
    const layout = gridLayout(1000, 12, metrics);
    expect(visibleSlots(layout, 12, 0, 5000, metrics.pad)).toEqual({ first: 0, last: 11 });
    expect(visibleSlots(layout, 0, 0, 5000, metrics.pad)).toEqual({ first: 0, last: -1 });
  });
});

describe('slotPosition', () => {
  it('places slots row by row', () => {
    const layout = gridLayout(1000, 100, metrics);
    expect(slotPosition(layout, 0, 16)).toEqual({ top: 16, left: 16 });
    const p = slotPosition(layout, 6, 16);
    expect(p.top).toBeCloseTo(16 + layout.rowHeight);
    expect(p.left).toBeCloseTo(16 + layout.tile + 8);
  });
});
