// How a Create job's results share the canvas: one even grid per job, each cell the job's shape,
// as large as the canvas allows. One result fills the visible height (or the width); two to four
// take the column count that gives each cell the largest size while the whole job still fits in view.

export interface ResultGridSpace {
  /** The width the job's tiles may use, in px. */
  width: number;
  /** The height they may use before the canvas scrolls, in px. */
  height: number;
  /** The gap between cells, in px. */
  gap: number;
}

export interface ResultGridLayout {
  columns: number;
  /** Each cell's size in px (whole pixels, never wider than the space). */
  cellWidth: number;
  cellHeight: number;
}

/** The smallest cell a job is drawn at, even in a very short or narrow canvas. */
export const MIN_CELL = 96;

/**
 * The layout for `count` results of shape `aspect` (width ÷ height): every cell the same size. The
 * columns (1…count) are chosen to make the cells largest when the rows must fit in `height`; when
 * no choice fits, the widest cells that fit the width win (the canvas then scrolls).
 */
export function resultGrid(count: number, aspect: number, space: ResultGridSpace): ResultGridLayout {
  const n = Math.max(1, Math.floor(count));
  const a = aspect > 0 && Number.isFinite(aspect) ? aspect : 1;
  const width = Math.max(MIN_CELL, space.width);
  const height = Math.max(MIN_CELL, space.height);
  let best: ResultGridLayout | null = null;
  for (let columns = 1; columns <= n; columns++) {
    const rows = Math.ceil(n / columns);
    // Leave no empty column: 3 results never sit in a grid of 4.
    if (columns > 1 && Math.ceil(n / (columns - 1)) === rows) continue;
    const byWidth = (width - space.gap * (columns - 1)) / columns;
    const byHeight = ((height - space.gap * (rows - 1)) / rows) * a;
    const cellWidth = Math.floor(Math.max(Math.min(byWidth, byHeight), Math.min(MIN_CELL * a, byWidth)));
    if (!best || cellWidth > best.cellWidth) best = { columns, cellWidth, cellHeight: Math.floor(cellWidth / a) };
  }
  return best ?? { columns: 1, cellWidth: Math.floor(width), cellHeight: Math.floor(width / a) };
}
