// The windowed grid in true shapes: justified rows (every tile keeps its aspect ratio, every full row
// spans the width, rows stay near a target height), laid out incrementally so a library of 100,000
// items costs what its newly loaded page costs, and only the rows in view are rendered.
//
// Why not the `justified-layout` package for this grid: it lays out a whole list per call, returns an
// object per box, and grows its result with Array.concat once per row (quadratic: seconds at 100,000
// items); a grid that grows a page of 200 at a time needs to redo only its last, still open row. The
// row rule is the same idea (close a row when its height at full width comes nearest the target).
//
// Slots past the loaded items (known to follow, not loaded yet) are placeholder rows of a fixed shape,
// placed arithmetically: nothing is stored for them.

export interface JustifiedMetrics {
  /** The row height aimed for, in px. */
  targetRowHeight: number;
  gap: number;
  /** Padding around the whole grid. */
  pad: number;
  /** The shape of a slot not loaded yet. */
  placeholderAspect: number;
}

export interface TileRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** `array`, or a copy at least `size` long (doubling, so appends cost little over time). */
export const grow = <T extends Float64Array | Int32Array>(array: T, size: number): T => {
  if (array.length >= size) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2, 256));
  next.set(array);
  return next;
};

export class JustifiedGrid {
  readonly metrics: JustifiedMetrics;
  #width = 0;
  #loaded = 0;
  #slots = 0;
  #aspects = new Float64Array(0);
  #left = new Float64Array(0);
  #tileWidth = new Float64Array(0);
  #rowOf = new Int32Array(0);
  // Rows of loaded items (closed rows, then at most one open row at the end).
  #rowFirst: number[] = [];
  #rowTop: number[] = [];
  #rowHeight: number[] = [];
  /** Items in closed rows; the open row (if any) starts here. */
  #closed = 0;
  // Placeholder rows after the loaded ones.
  #phTop = 0;
  #phPerRow = 1;
  #phTile = { width: 0, height: 0 };
  #height = 0;

  constructor(metrics: JustifiedMetrics) {
    this.metrics = metrics;
  }

  get width(): number {
    return this.#width;
  }
  get height(): number {
    return this.#height;
  }
  get loaded(): number {
    return this.#loaded;
  }
  get slots(): number {
    return this.#slots;
  }
  /** Rows of loaded items laid out (closed and open). */
  get rows(): number {
    return this.#rowFirst.length;
  }

  /**
   * Lays out `aspects` (one per loaded item, width ÷ height) in `width` px, followed by placeholders
   * up to `slots`. Only the rows from the first changed item on are redone. Returns whether anything moved.
   */
  update(width: number, aspects: ArrayLike<number>, slots: number): boolean {
    const loaded = aspects.length;
    const total = Math.max(slots, loaded);
    let from = 0;
    if (width === this.#width) {
      const common = Math.min(loaded, this.#loaded);
      while (from < common && this.#aspects[from] === aspects[from]) from += 1;
      if (from === loaded && loaded === this.#loaded && total === this.#slots) return false;
    }
    this.#width = width;
    this.#aspects = grow(this.#aspects, loaded);
    for (let i = from; i < loaded; i += 1) this.#aspects[i] = aspects[i] as number;
    // Redo from the start of the row holding the first change, or of the open row, whichever is first.
    const start = Math.min(from, this.#closed, this.#loaded);
    const rows = this.#rowFirst.length;
    const row = start >= this.#loaded ? rows : (this.#rowOf[start] as number);
    const resumeAt = row < rows ? (this.#rowFirst[row] as number) : this.#loaded;
    this.#rowFirst.length = row;
    this.#rowTop.length = row;
    this.#rowHeight.length = row;
    this.#closed = resumeAt;
    this.#loaded = loaded;
    this.#slots = total;
    this.#layoutFrom(resumeAt);
    return true;
  }

  #layoutFrom(first: number): void {
    const { targetRowHeight: target, gap, pad } = this.metrics;
    const inner = Math.max(1, this.#width - pad * 2);
    const n = this.#loaded;
    this.#left = grow(this.#left, n);
    this.#tileWidth = grow(this.#tileWidth, n);
    this.#rowOf = grow(this.#rowOf, n);
    const rows = this.#rowFirst.length;
    let top = rows === 0 ? pad : (this.#rowTop[rows - 1] as number) + (this.#rowHeight[rows - 1] as number) + gap;
    let i = first;
    while (i < n) {
      // Grow the row until it is wide enough at the target height, then keep whichever of the row with
      // or without the last item comes nearer the target height.
      let sum = 0;
      let k = 0;
      let closed = false;
      while (i + k < n) {
        const a = this.#aspects[i + k] as number;
        const widthAtTarget = (sum + a) * target + k * gap;
        if (widthAtTarget >= inner) {
          const withIt = (inner - k * gap) / (sum + a);
          const without = k > 0 ? (inner - (k - 1) * gap) / sum : Infinity;
          if (k === 0 || Math.abs(Math.log(withIt / target)) <= Math.abs(Math.log(without / target))) {
            sum += a;
            k += 1;
          }
          closed = true;
          break;
        }
        sum += a;
        k += 1;
      }
      const height = closed ? (inner - (k - 1) * gap) / sum : target;
      const row = this.#rowFirst.length;
      this.#rowFirst.push(i);
      this.#rowTop.push(top);
      this.#rowHeight.push(height);
      let left = pad;
      for (let j = i; j < i + k; j += 1) {
        const w = (this.#aspects[j] as number) * height;
        this.#left[j] = left;
        this.#tileWidth[j] = w;
        this.#rowOf[j] = row;
        left += w + gap;
      }
      if (closed) this.#closed = i + k;
      top += height + gap;
      i += k;
    }
    // Placeholders: uniform rows of the placeholder shape near the target height.
    const pa = this.metrics.placeholderAspect;
    const perRow = Math.max(1, Math.round((inner + gap) / (target * pa + gap)));
    const tileWidth = (inner - (perRow - 1) * gap) / perRow;
    this.#phPerRow = perRow;
    this.#phTile = { width: tileWidth, height: tileWidth / pa };
    this.#phTop = top;
    const placeholders = this.#slots - n;
    const phRows = Math.ceil(placeholders / perRow);
    const end = top + phRows * (this.#phTile.height + gap);
    this.#height = n === 0 && placeholders === 0 ? 0 : end - gap + pad;
  }

  /** Where slot `index` sits inside the scrolled content. */
  rect(index: number): TileRect {
    if (index < this.#loaded) {
      const row = this.#rowOf[index] as number;
      return {
        left: this.#left[index] as number,
        top: this.#rowTop[row] as number,
        width: this.#tileWidth[index] as number,
        height: this.#rowHeight[row] as number,
      };
    }
    const j = index - this.#loaded;
    const row = Math.floor(j / this.#phPerRow);
    const column = j % this.#phPerRow;
    return {
      left: this.metrics.pad + column * (this.#phTile.width + this.metrics.gap),
      top: this.#phTop + row * (this.#phTile.height + this.metrics.gap),
      width: this.#phTile.width,
      height: this.#phTile.height,
    };
  }

  /** The first row (of loaded items) whose bottom is below `y`. */
  #rowAt(y: number): number {
    let lo = 0;
    let hi = this.#rowFirst.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#rowTop[mid] as number) + (this.#rowHeight[mid] as number) < y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The slot at or after vertical position `y` (the first one of its row). */
  #slotAt(y: number): number {
    if (this.#slots === 0) return 0;
    if (this.#loaded > 0 && y < this.#phTop) return this.#rowFirst[this.#rowAt(y)] as number;
    const row = Math.max(0, Math.floor((y - this.#phTop) / (this.#phTile.height + this.metrics.gap)));
    return Math.min(this.#slots - 1, this.#loaded + row * this.#phPerRow);
  }

  /**
   * Slots to render for a scroll position, `overscan` px beyond the top and bottom edges (a number:
   * both): always whole rows.
   */
  visible(
    scrollTop: number,
    viewportHeight: number,
    overscan: number | { above: number; below: number } = 400,
  ): { first: number; last: number } {
    if (this.#slots === 0) return { first: 0, last: -1 };
    const { above, below } = typeof overscan === 'number' ? { above: overscan, below: overscan } : overscan;
    const first = this.#slotAt(Math.max(0, scrollTop - above));
    const bottom = scrollTop + viewportHeight + below;
    // The slot starting the first row below the bottom edge, minus one.
    let last: number;
    if (this.#loaded > 0 && bottom < this.#phTop) {
      const row = this.#rowAt(bottom);
      const next = this.#rowFirst[row + 1];
      last = (next ?? this.#loaded) - 1;
    } else {
      const row = Math.floor((bottom - this.#phTop) / (this.#phTile.height + this.metrics.gap));
      last = Math.min(this.#slots - 1, this.#loaded + (row + 1) * this.#phPerRow - 1);
    }
    return { first: Math.min(first, last), last };
  }

  /** The slot above or below `index` nearest its horizontal centre (keyboard navigation), or `index` at an edge. */
  neighbour(index: number, direction: 1 | -1): number {
    const here = this.rect(index);
    const centre = here.left + here.width / 2;
    const y = direction > 0 ? here.top + here.height + this.metrics.gap + 1 : here.top - this.metrics.gap - 1;
    if (y < 0 || y > this.#height) return index;
    let i = this.#slotAt(y);
    if (i === index || (direction > 0 && i < index)) return index;
    let best = i;
    let bestDistance = Infinity;
    const rowTop = this.rect(i).top;
    for (; i < this.#slots; i += 1) {
      const r = this.rect(i);
      if (r.top !== rowTop) break;
      const distance = Math.abs(r.left + r.width / 2 - centre);
      if (distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** About how many slots a viewport of this height shows (PageUp/PageDown). */
  perScreen(viewportHeight: number): number {
    const range = this.visible(0, viewportHeight, 0);
    return Math.max(1, range.last - range.first + 1);
  }
}

/**
 * Browsers cap an element's height (Chromium near 33.5 million px, Firefox near 17.9 million): a
 * million tiles in justified rows are taller. Past the cap the scrolled content is shortened and a
 * scroll position stands for a proportionally lower point of the layout, so the whole list stays
 * reachable; tiles are drawn where that point puts them. The cap is this browser's own, measured
 * once (a probe element given a huge height keeps what the browser allows), with a margin.
 */
export const MAX_SCROLL_HEIGHT = 15_000_000;
let measuredCap: number | null = null;

export function maxScrollHeight(): number {
  if (measuredCap !== null) return measuredCap;
  if (typeof document === 'undefined' || !document.body) return MAX_SCROLL_HEIGHT;
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;visibility:hidden;width:1px;height:1000000000px';
  document.body.append(probe);
  const allowed = probe.offsetHeight;
  probe.remove();
  measuredCap = allowed > 0 ? Math.max(MAX_SCROLL_HEIGHT, Math.floor(allowed * 0.9)) : MAX_SCROLL_HEIGHT;
  return measuredCap;
}

export interface ScrollMap {
  /** Whether the content is shortened (only then does a tile's place depend on the scroll position). */
  scaled: boolean;
  /** The height given to the scrolled content. */
  contentHeight: number;
  /** The layout's y shown at the top of the viewport for a scroll position. */
  layoutTop(scrollTop: number): number;
  /** The scroll position that shows layout `y` at the top of the viewport. */
  scrollTopFor(y: number): number;
  /** Where a layout `y` is drawn inside the content, seen from a scroll position. */
  drawAt(y: number, scrollTop: number): number;
}

export function scrollMap(layoutHeight: number, viewportHeight: number, max = MAX_SCROLL_HEIGHT): ScrollMap {
  if (layoutHeight <= max) {
    return {
      scaled: false,
      contentHeight: layoutHeight,
      layoutTop: (scrollTop) => scrollTop,
      scrollTopFor: (y) => y,
      drawAt: (y) => y,
    };
  }
  // The last scroll position (max − viewport) shows the layout's last screen (height − viewport).
  const scale = Math.max(1, layoutHeight - viewportHeight) / Math.max(1, max - viewportHeight);
  const layoutTop = (scrollTop: number) => scrollTop * scale;
  return {
    scaled: true,
    contentHeight: max,
    layoutTop,
    scrollTopFor: (y) => y / scale,
    drawAt: (y, scrollTop) => y - layoutTop(scrollTop) + scrollTop,
  };
}
