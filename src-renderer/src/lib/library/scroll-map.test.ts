import { describe, expect, it } from 'vitest';
import { scrollMap } from './scroll-map.ts';

describe('scrollMap', () => {
  it('leaves a list within the browser limit as it is', () => {
    const map = scrollMap(2_000_000, 800);
    expect(map.scaled).toBe(false);
    expect(map.contentHeight).toBe(2_000_000);
    expect(map.layoutTop(12_345)).toBe(12_345);
    expect(map.drawAt(500, 12_345)).toBe(500);
  });

  it('shortens a taller list and still reaches its first and last screens, drawing tiles in view', () => {
    const layout = 37_000_000;
    const viewport = 800;
    const map = scrollMap(layout, viewport, 15_000_000);
    expect(map.scaled).toBe(true);
    expect(map.contentHeight).toBe(15_000_000);
    expect(map.layoutTop(0)).toBe(0);
    const last = 15_000_000 - viewport;
    expect(map.layoutTop(last)).toBeCloseTo(layout - viewport, 3);
    expect(map.scrollTopFor(map.layoutTop(1_234_567))).toBeCloseTo(1_234_567, 3);
    // A tile at the top of what a position shows is drawn at the top of the viewport.
    for (const scrollTop of [0, 7_000_000, last]) {
      expect(map.drawAt(map.layoutTop(scrollTop), scrollTop)).toBeCloseTo(scrollTop, 3);
      expect(map.drawAt(map.layoutTop(scrollTop) + 300, scrollTop)).toBeCloseTo(scrollTop + 300, 3);
    }
  });
});
