// The windowed grid's arithmetic: columns for a width, rows for a number of slots, and which
// slots a scroll position shows. Only those are rendered, so 50,000 items cost what a screenful does.

export interface GridMetrics {
  /** Smallest tile edge before a column is dropped. */
  minTile: number;
  gap: number;
  /** Padding around the whole grid. */
  pad: number;
}

export interface GridLayout {
  columns: number;
  /** Tile edge in px (tiles are square). */
  tile: number;
  /** Tile plus gap. */
  rowHeight: number;
  rows: number;
  /** Height of the scrolled content. */
  height: number;
}

export function gridLayout(width: number, slots: number, metrics: GridMetrics): GridLayout {
  const inner = Math.max(0, width - metrics.pad * 2);
  const columns = Math.max(1, Math.floor((inner + metrics.gap) / (metrics.minTile + metrics.gap)));
  const tile = Math.max(1, (inner - metrics.gap * (columns - 1)) / columns);
  const rowHeight = tile + metrics.gap;
  const rows = Math.ceil(Math.max(0, slots) / columns);
  const height = rows === 0 ? 0 : rows * rowHeight - metrics.gap + metrics.pad * 2;
  return { columns, tile, rowHeight, rows, height };
}

/** Slots to render for a scroll position: whole rows in view plus `overscan` rows each side. */
export function visibleSlots(
  layout: GridLayout,
  slots: number,
  scrollTop: number,
  viewportHeight: number,
  pad: number,
  overscan = 2,
): { first: number; last: number } {
  if (slots <= 0 || layout.rows === 0) return { first: 0, last: -1 };
  const top = Math.max(0, scrollTop - pad);
  const firstRow = Math.max(0, Math.floor(top / layout.rowHeight) - overscan);
  const lastRow = Math.min(layout.rows - 1, Math.floor((top + viewportHeight) / layout.rowHeight) + overscan);
  return { first: firstRow * layout.columns, last: Math.min(slots - 1, (lastRow + 1) * layout.columns - 1) };
}

/** Where slot `index` sits inside the scrolled content. */
export function slotPosition(layout: GridLayout, index: number, pad: number): { top: number; left: number } {
  const row = Math.floor(index / layout.columns);
  const column = index % layout.columns;
  return { top: pad + row * layout.rowHeight, left: pad + column * (layout.tile + (layout.rowHeight - layout.tile)) };
}
