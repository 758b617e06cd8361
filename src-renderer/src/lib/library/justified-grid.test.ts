import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JustifiedGrid } from './justified-grid.ts';

const metrics = { targetRowHeight: 200, gap: 6, pad: 16, placeholderAspect: 1 };

const mixed = (n: number): number[] =>
  Array.from({ length: n }, (_, i) => [1, 16 / 9, 9 / 16, 21 / 9, 4 / 3][i % 5] as number);

function rowsOf(grid: JustifiedGrid, count: number) {
  const rows = new Map<number, { index: number; left: number; width: number; height: number }[]>();
  for (let i = 0; i < count; i += 1) {
    const r = grid.rect(i);
    const row = rows.get(r.top) ?? [];
    row.push({ index: i, left: r.left, width: r.width, height: r.height });
    rows.set(r.top, row);
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([top, items]) => ({ top, items }));
}

describe('JustifiedGrid', () => {
  it('keeps every tile in its own shape, fills full rows to the width and stays near the target height', () => {
    const aspects = mixed(200);
    const grid = new JustifiedGrid(metrics);
    grid.update(1200, aspects, 200);
    const rows = rowsOf(grid, 200);
    rows.forEach((row, r) => {
      for (const tile of row.items) expect(tile.width / tile.height).toBeCloseTo(aspects[tile.index] as number, 9);
      const last = row.items[row.items.length - 1]!;
      if (r < rows.length - 1) {
        expect(last.left + last.width).toBeCloseTo(1200 - 16, 6);
        expect(row.items[0]!.height).toBeGreaterThan(100);
        expect(row.items[0]!.height).toBeLessThan(400);
      } else {
        // The last row is not stretched: at the target height, from the left.
        expect(last.left + last.width).toBeLessThanOrEqual(1200 - 16 + 1e-6);
      }
      if (r > 0) expect(row.top).toBeCloseTo(rows[r - 1]!.top + rows[r - 1]!.items[0]!.height + 6, 6);
    });
    expect(grid.height).toBeCloseTo(rows.at(-1)!.top + rows.at(-1)!.items[0]!.height + 16, 6);
  });

  it('lays out a page appended exactly as the whole list at once (only the open row is redone)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.25, max: 4, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 299 }),
        fc.integer({ min: 300, max: 2000 }),
        (aspects, cut, width) => {
          const first = aspects.slice(0, Math.min(cut, aspects.length));
          const grown = new JustifiedGrid(metrics);
          grown.update(width, first, aspects.length + 50);
          grown.update(width, aspects, aspects.length + 50);
          const whole = new JustifiedGrid(metrics);
          whole.update(width, aspects, aspects.length + 50);
          for (let i = 0; i < aspects.length + 50; i += 1) expect(grown.rect(i)).toEqual(whole.rect(i));
          expect(grown.height).toBeCloseTo(whole.height, 9);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('redoes the rows from a changed item on, and everything on a new width', () => {
    const aspects = mixed(100);
    const grid = new JustifiedGrid(metrics);
    grid.update(1000, aspects, 100);
    const changed = aspects.slice();
    changed[50] = 3;
    expect(grid.update(1000, changed, 100)).toBe(true);
    const fresh = new JustifiedGrid(metrics);
    fresh.update(1000, changed, 100);
    for (let i = 0; i < 100; i += 1) expect(grid.rect(i)).toEqual(fresh.rect(i));
    expect(grid.update(1000, changed, 100)).toBe(false);
    grid.update(700, changed, 100);
    const narrow = new JustifiedGrid(metrics);
    narrow.update(700, changed, 100);
    for (let i = 0; i < 100; i += 1) expect(grid.rect(i)).toEqual(narrow.rect(i));
  });

  it('places slots not loaded yet as placeholder rows after the loaded ones', () => {
    const grid = new JustifiedGrid(metrics);
    grid.update(1000, mixed(10), 1000);
    const last = grid.rect(9);
    const ph = grid.rect(10);
    expect(ph.top).toBeGreaterThan(last.top);
    expect(ph.width).toBeCloseTo(ph.height);
    const next = grid.rect(11);
    expect(next.top).toBe(ph.top);
    expect(grid.height).toBeGreaterThan(grid.rect(999).top);
  });

  it('answers the rows in view for 100,000 slots, whole rows, without walking the list', () => {
    const n = 100_000;
    const grid = new JustifiedGrid(metrics);
    const aspects = mixed(n);
    const t0 = performance.now();
    grid.update(1280, aspects, n);
    const layoutMs = performance.now() - t0;
    expect(layoutMs).toBeLessThan(200);
    const t1 = performance.now();
    for (let k = 0; k < 1000; k += 1) grid.visible((grid.height * k) / 1000, 800);
    expect(performance.now() - t1).toBeLessThan(50);
    const mid = grid.visible(grid.height / 2, 800, 0);
    expect(mid.last - mid.first).toBeLessThan(60);
    expect(grid.rect(mid.first).top).toBeLessThanOrEqual(grid.height / 2 + 1);
    expect(grid.rect(mid.last).top + grid.rect(mid.last).height).toBeGreaterThanOrEqual(grid.height / 2 + 800 - 1);
    // Whole rows: the slot before the first starts a row above.
    expect(grid.rect(mid.first - 1).top).toBeLessThan(grid.rect(mid.first).top);
    expect(grid.rect(mid.last + 1).top).toBeGreaterThan(grid.rect(mid.last).top);
  });

  it('reaches further on the side given more overscan (rows made ahead of a scroll)', () => {
    const grid = new JustifiedGrid(metrics);
    grid.update(1280, mixed(5000), 5000);
    const y = grid.height / 2;
    const none = grid.visible(y, 800, 0);
    const down = grid.visible(y, 800, { above: 0, below: 600 });
    const up = grid.visible(y, 800, { above: 600, below: 0 });
    expect(down.first).toBe(none.first);
    expect(down.last).toBeGreaterThan(none.last);
    expect(grid.rect(down.last).top + grid.rect(down.last).height).toBeGreaterThanOrEqual(y + 800 + 600 - 1);
    expect(up.last).toBe(none.last);
    expect(up.first).toBeLessThan(none.first);
    expect(grid.rect(up.first).top).toBeLessThanOrEqual(y - 600 + 1);
    expect(grid.visible(y, 800, 300)).toEqual(grid.visible(y, 800, { above: 300, below: 300 }));
  });

  it('finds the tile above and below for the arrow keys', () => {
    const grid = new JustifiedGrid(metrics);
    grid.update(1000, mixed(60), 60);
    const below = grid.neighbour(0, 1);
    expect(grid.rect(below).top).toBeGreaterThan(grid.rect(0).top);
    expect(grid.neighbour(below, -1)).toBe(0);
    expect(grid.neighbour(0, -1)).toBe(0);
    expect(grid.neighbour(59, 1)).toBe(59);
  });

  it('has no height and no slots in view when empty', () => {
    const grid = new JustifiedGrid(metrics);
    grid.update(1000, [], 0);
    expect(grid.height).toBe(0);
    expect(grid.visible(0, 800)).toEqual({ first: 0, last: -1 });
  });
});

describe('JustifiedGrid with sections (date headers)', () => {
  const withHeaders = { ...metrics, headerHeight: 40 };

  /** Section starts from section sizes: [3, 5] → [0, 3]. */
  const startsOf = (sizes: readonly number[]): number[] => {
    const starts: number[] = [];
    let at = 0;
    for (const size of sizes) {
      starts.push(at);
      at += size;
    }
    return starts;
  };
  const sectionOfItem = (starts: readonly number[], index: number): number =>
    starts.findLastIndex((start) => start <= index);

  const sectionsArb = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 12 }).chain((sizes) =>
    fc.record({
      sizes: fc.constant(sizes),
      aspects: fc.array(fc.double({ min: 0.25, max: 4, noNaN: true }), {
        minLength: sizes.reduce((a, b) => a + b, 0),
        maxLength: sizes.reduce((a, b) => a + b, 0),
      }),
      width: fc.integer({ min: 300, max: 2000 }),
    }),
  );

  it('never puts two sections in one row, and opens each with its header band right above its first row', () => {
    fc.assert(
      fc.property(sectionsArb, ({ sizes, aspects, width }) => {
        const starts = startsOf(sizes);
        const grid = new JustifiedGrid(withHeaders);
        grid.update(width, aspects, aspects.length, starts);
        const rows = rowsOf(grid, aspects.length);
        for (const row of rows) {
          const sections = new Set(row.items.map((t) => sectionOfItem(starts, t.index)));
          expect(sections.size).toBe(1);
        }
        starts.forEach((start, s) => {
          const header = grid.headerTop(s)!;
          expect(header).not.toBeNull();
          expect(grid.rect(start).top).toBeCloseTo(header + 40, 9);
          // Rows of the section before end above the header, one gap away.
          if (start > 0) {
            const before = grid.rect(start - 1);
            expect(header).toBeCloseTo(before.top + before.height + metrics.gap, 9);
            expect(grid.sectionAt(header + 1)).toBe(s);
            expect(grid.sectionAt(header - 1)).toBe(s - 1);
          }
          // The first tile of a section starts its row at the left.
          expect(grid.rect(start).left).toBe(metrics.pad);
        });
        // A section's last row is not stretched past the width; tiles keep their shapes.
        for (let i = 0; i < aspects.length; i += 1) {
          const r = grid.rect(i);
          expect(r.width / r.height).toBeCloseTo(aspects[i]!, 6);
          expect(r.left + r.width).toBeLessThanOrEqual(width - metrics.pad + 1e-6);
        }
        expect(grid.height).toBeGreaterThanOrEqual(rows.at(-1)!.top + rows.at(-1)!.items[0]!.height);
      }),
      { numRuns: 80 },
    );
  });

  /** The same place to a billionth of a pixel (laid out in steps, the sums run in another order: 1e-13 apart). */
  const expectSameRect = (a: { left: number; top: number; width: number; height: number }, b: typeof a) => {
    for (const side of ['left', 'top', 'width', 'height'] as const) expect(a[side]).toBeCloseTo(b[side], 9);
  };

  it('lays out pages appended and sections arriving later as all at once', () => {
    fc.assert(
      fc.property(sectionsArb, fc.integer({ min: 0, max: 400 }), ({ sizes, aspects, width }, cut) => {
        const starts = startsOf(sizes);
        const grown = new JustifiedGrid(withHeaders);
        grown.update(width, aspects.slice(0, Math.min(cut, aspects.length)), aspects.length + 20);
        grown.update(width, aspects.slice(0, Math.min(cut, aspects.length)), aspects.length + 20, starts);
        grown.update(width, aspects, aspects.length + 20, starts);
        const whole = new JustifiedGrid(withHeaders);
        whole.update(width, aspects, aspects.length + 20, starts);
        for (let i = 0; i < aspects.length + 20; i += 1) expectSameRect(grown.rect(i), whole.rect(i));
        starts.forEach((_, s) => {
          const [stepwise, atOnce] = [grown.headerTop(s), whole.headerTop(s)];
          if (stepwise === null || atOnce === null) expect(stepwise).toBe(atOnce);
          else expect(stepwise).toBeCloseTo(atOnce, 9);
        });
        expect(grown.height).toBeCloseTo(whole.height, 9);
        // Sections taken away again: the plain layout.
        grown.update(width, aspects, aspects.length + 20, []);
        const plain = new JustifiedGrid(withHeaders);
        plain.update(width, aspects, aspects.length + 20);
        for (let i = 0; i < aspects.length; i += 1) expectSameRect(grown.rect(i), plain.rect(i));
      }),
      { numRuns: 60 },
    );
  });

  it('moves the arrow keys item to item across a header, both ways', () => {
    fc.assert(
      fc.property(sectionsArb, ({ sizes, aspects, width }) => {
        const starts = startsOf(sizes);
        const grid = new JustifiedGrid(withHeaders);
        grid.update(width, aspects, aspects.length, starts);
        for (const start of starts.slice(1)) {
          // Down from the section's last row lands in the next section's first row, and back up.
          const last = start - 1;
          const down = grid.neighbour(last, 1);
          expect(grid.rect(down).top).toBe(grid.rect(start).top);
          const up = grid.neighbour(start, -1);
          expect(grid.rect(up).top).toBe(grid.rect(last).top);
        }
        expect(grid.neighbour(0, -1)).toBe(0);
        expect(grid.neighbour(aspects.length - 1, 1)).toBe(aspects.length - 1);
      }),
      { numRuns: 60 },
    );
  });

  it('places no header for a section not loaded yet, and finds none above the first', () => {
    const grid = new JustifiedGrid(withHeaders);
    grid.update(1000, mixed(30), 100, [0, 20, 60]);
    expect(grid.headerTop(0)).toBe(16);
    expect(grid.headerTop(1)).not.toBeNull();
    expect(grid.headerTop(2)).toBeNull();
    expect(grid.sectionAt(0)).toBe(-1);
    expect(grid.sectionAt(grid.height)).toBe(1);
    // Down from the last loaded row reaches the placeholders.
    expect(grid.neighbour(29, 1)).toBeGreaterThanOrEqual(30);
  });
});
