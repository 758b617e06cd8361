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
//
// Sections (the Library's date headers): given the index of each section's first item, a row never
// runs on into the next section (a section's last row is not stretched, like the list's last), and a
// header band of `headerHeight` px opens each section above its first row. Headers are placed among
// the loaded items only: a section starting among the placeholders gets its band when it is loaded.

export interface JustifiedMetrics {
  /** The row height aimed for, in px. */
  targetRowHeight: number;
  gap: number;
  /** Padding around the whole grid. */
  pad: number;
  /** The shape of a slot not loaded yet. */
  placeholderAspect: number;
  /** The height of a section's header band (sections only). */
  headerHeight?: number;
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
  /** Each section's first item, ascending. */
  #sections: number[] = [];
  /** Each section's header top (NaN while its first item is not loaded). */
  #headerTop: number[] = [];

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
  update(width: number, aspects: ArrayLike<number>, slots: number, sections: readonly number[] = []): boolean {
    const loaded = aspects.length;
    const total = Math.max(slots, loaded);
    let from = 0;
    const sectionsFrom = this.#firstSectionChange(sections);
    if (width === this.#width) {
      const common = Math.min(loaded, this.#loaded);
      while (from < common && this.#aspects[from] === aspects[from]) from += 1;
      if (from === loaded && loaded === this.#loaded && total === this.#slots && sectionsFrom === Infinity)
        return false;
      from = Math.min(from, sectionsFrom);
    }
    if (sectionsFrom !== Infinity) this.#sections = [...sections];
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

  /** The first item whose section changes with `sections` (Infinity: none does). */
  #firstSectionChange(sections: readonly number[]): number {
    const old = this.#sections;
    const common = Math.min(old.length, sections.length);
    let s = 0;
    while (s < common && old[s] === sections[s]) s += 1;
    if (s === old.length && s === sections.length) return Infinity;
    return Math.min(old[s] ?? Infinity, sections[s] ?? Infinity);
  }

  #layoutFrom(first: number): void {
    const { targetRowHeight: target, gap, pad } = this.metrics;
    const headerHeight = this.metrics.headerHeight ?? 0;
    const sections = this.#sections;
    // The first section starting at or after `first` (rows start at section starts, so none splits).
    let s = 0;
    while (s < sections.length && (sections[s] as number) < first) s += 1;
    this.#headerTop.length = sections.length;
    for (let t = s; t < sections.length; t += 1) this.#headerTop[t] = NaN;
    const inner = Math.max(1, this.#width - pad * 2);
    const n = this.#loaded;
    this.#left = grow(this.#left, n);
    this.#tileWidth = grow(this.#tileWidth, n);
    this.#rowOf = grow(this.#rowOf, n);
    const rows = this.#rowFirst.length;
    let top = rows === 0 ? pad : (this.#rowTop[rows - 1] as number) + (this.#rowHeight[rows - 1] as number) + gap;
    let i = first;
    while (i < n) {
      if (sections[s] === i) {
        this.#headerTop[s] = top;
        top += headerHeight;
        s += 1;
      }
      // A row stops before the next section's first item.
      const end = Math.min(n, sections[s] ?? n);
      // Grow the row until it is wide enough at the target height, then keep whichever of the row with
      // or without the last item comes nearer the target height.
      let sum = 0;
      let k = 0;
      let closed = false;
      while (i + k < end) {
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
      // A section's last row is final, unstretched (at the target height, from the left).
      const sectionEnd = !closed && i + k === sections[s];
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
      if (closed || sectionEnd) this.#closed = i + k;
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

  /** The sections' first items, as last given. */
  get sections(): readonly number[] {
    return this.#sections;
  }

  /** Where section `s`'s header sits inside the scrolled content; null while its first item is not loaded. */
  headerTop(s: number): number | null {
    const top = this.#headerTop[s];
    return top === undefined || Number.isNaN(top) ? null : top;
  }

  /** The section shown at vertical position `y`: the last one whose header starts at or above it (-1: none). */
  sectionAt(y: number): number {
    let lo = 0;
    let hi = this.#sections.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const top = this.headerTop(mid);
      if (top !== null && top <= y) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
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
    const row = this.#rowIndex(index) + direction;
    if (row < 0 || index < 0 || index >= this.#slots) return index;
    // The next row over (across a section's header), by its first and last slot.
    const [first, last] = this.#rowSlots(row);
    if (first > last) return index;
    let best = first;
    let bestDistance = Infinity;
    for (let i = first; i <= last; i += 1) {
      const r = this.rect(i);
      const distance = Math.abs(r.left + r.width / 2 - centre);
      if (distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** The row of slot `index`, counting loaded rows first, then placeholder rows. */
  #rowIndex(index: number): number {
    if (index < this.#loaded) return this.#rowOf[index] as number;
    return this.#rowFirst.length + Math.floor((index - this.#loaded) / this.#phPerRow);
  }

  /** The first and last slot of a row (first > last: no such row). */
  #rowSlots(row: number): [number, number] {
    const rows = this.#rowFirst.length;
    if (row < rows) return [this.#rowFirst[row] as number, (this.#rowFirst[row + 1] ?? this.#loaded) - 1];
    const first = this.#loaded + (row - rows) * this.#phPerRow;
    return [first, Math.min(this.#slots - 1, first + this.#phPerRow - 1)];
  }

  /** About how many slots a viewport of this height shows (PageUp/PageDown). */
  perScreen(viewportHeight: number): number {
    const range = this.visible(0, viewportHeight, 0);
    return Math.max(1, range.last - range.first + 1);
  }
}
