// A long list read in keyset pages, holding only the pages near what is shown. Every page keeps the
// cursor that fetched it and how many items it held, so a page let go can be fetched again when the
// view comes back to it; every item's shape (width ÷ height) is kept for the whole list in one typed
// array, so the justified grid can lay out all of it while only a window of items is in memory.
// At 1,000,000 items that is 8 MB of shapes and one cursor a page, instead of a million objects.
// Past the pages read in order, a page can also be known only by its map (appendUnread: its cursor
// and its items' shapes, from the core's assets:layout), so any part of a long list is one fetch away.

import { grow } from './justified-grid.ts';

interface Page<T> {
  /** What fetched this page (null: the first page). */
  cursor: string | null;
  /** How many items it holds (a patch can make it one more or less than the page size). */
  count: number;
  /** Its items, or null once let go. */
  items: T[] | null;
}

export class PagedList<T> {
  readonly #aspectOf: (item: T) => number;
  #pages: Page<T>[] = [];
  /** Index of each page's first item; later ones shift when a page's count changes. */
  #starts: number[] = [];
  #length = 0;
  #aspects = new Float64Array(0);

  constructor(aspectOf: (item: T) => number) {
    this.#aspectOf = aspectOf;
  }

  /** Items read so far (held or let go). */
  get length(): number {
    return this.#length;
  }

  get pageCount(): number {
    return this.#pages.length;
  }

  /** Every read item's shape, in list order (a view valid until the list changes). */
  get aspects(): Float64Array {
    return this.#aspects.subarray(0, this.#length);
  }

  /** Items held in memory now. */
  get heldCount(): number {
    let held = 0;
    for (const page of this.#pages) if (page.items) held += page.count;
    return held;
  }

  clear(): void {
    this.#pages = [];
    this.#starts = [];
    this.#length = 0;
  }

  /** Adds the next page, fetched with `cursor`. */
  append(cursor: string | null, items: T[]): void {
    this.#pages.push({ cursor, count: items.length, items });
    this.#starts.push(this.#length);
    this.#aspects = grow(this.#aspects, this.#length + items.length);
    items.forEach((item, i) => (this.#aspects[this.#length + i] = this.#aspectOf(item)));
    this.#length += items.length;
  }

  /**
   * Adds a page known only by its map (the cursor that fetches it and its items' shapes): nothing of
   * it is held until the view comes near and it is fetched.
   */
  appendUnread(cursor: string | null, shapes: ArrayLike<number>): void {
    this.#pages.push({ cursor, count: shapes.length, items: null });
    this.#starts.push(this.#length);
    this.#aspects = grow(this.#aspects, this.#length + shapes.length);
    this.#aspects.set(shapes, this.#length);
    this.#length += shapes.length;
  }

  /** The page holding `index` (binary search over the pages' starts). */
  pageOf(index: number): number {
    let lo = 0;
    let hi = this.#pages.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.#starts[mid] as number) <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The item at `index` if its page is held. */
  at(index: number): T | undefined {
    if (index < 0 || index >= this.#length) return undefined;
    const p = this.pageOf(index);
    return this.#pages[p]?.items?.[index - (this.#starts[p] as number)];
  }

  /** Where a page starts, what fetched it and how many items it held: what fetching it again needs. */
  page(p: number): { start: number; cursor: string | null; count: number; held: boolean } | undefined {
    const page = this.#pages[p];
    return (
      page && { start: this.#starts[p] as number, cursor: page.cursor, count: page.count, held: page.items !== null }
    );
  }

  /** Pages between these indexes (inclusive) that were let go. */
  missing(first: number, last: number): number[] {
    if (this.#length === 0) return [];
    const out: number[] = [];
    const to = this.pageOf(Math.min(last, this.#length - 1));
    for (let p = this.pageOf(Math.max(0, first)); p <= to; p += 1) if (!this.#pages[p]?.items) out.push(p);
    return out;
  }

  /** A page fetched again: its items replace what it held (the list shifts if their number changed). */
  refill(p: number, items: T[]): void {
    const page = this.#pages[p];
    if (!page) return;
    const start = this.#starts[p] as number;
    this.#resize(p, start, page.count, items.length);
    page.items = items;
    items.forEach((item, i) => (this.#aspects[start + i] = this.#aspectOf(item)));
  }

  /** Lets go of every page with no item between `first` and `last` (inclusive). */
  keepOnly(first: number, last: number): void {
    this.#pages.forEach((page, p) => {
      const start = this.#starts[p] as number;
      if (page.items && (start + page.count - 1 < first || start > last)) page.items = null;
    });
  }

  /** The held items, in order, with their indexes. */
  *entries(): Generator<[number, T]> {
    for (let p = 0; p < this.#pages.length; p += 1) {
      const items = this.#pages[p]?.items;
      if (!items) continue;
      const start = this.#starts[p] as number;
      for (let i = 0; i < items.length; i += 1) yield [start + i, items[i] as T];
    }
  }

  /** The index of the first held item that passes `test`, or -1. */
  findIndex(test: (item: T) => boolean): number {
    for (const [index, item] of this.entries()) if (test(item)) return index;
    return -1;
  }

  /** Replaces the held item at `index`. */
  set(index: number, item: T): void {
    const p = this.pageOf(index);
    const items = this.#pages[p]?.items;
    if (!items) return;
    items[index - (this.#starts[p] as number)] = item;
    this.#aspects[index] = this.#aspectOf(item);
  }

  /** Removes the item at `index` (its page must be held). */
  remove(index: number): void {
    const p = this.pageOf(index);
    const page = this.#pages[p];
    if (!page?.items) return;
    page.items.splice(index - (this.#starts[p] as number), 1);
    this.#resize(p, index, 1, 0);
  }

  /**
   * Puts `item` at `index`, in the held page that holds the item before it (or, at 0, the first page).
   * Returns false when that page was let go or already holds `capacity` items (a page fetched again
   * asks for as many as it held, which the service caps).
   */
  insert(index: number, item: T, capacity = Infinity): boolean {
    if (this.#pages.length === 0) {
      this.append(null, [item]);
      return true;
    }
    const p = index === 0 ? 0 : this.pageOf(index - 1);
    const page = this.#pages[p];
    if (!page?.items || page.count >= capacity) return false;
    page.items.splice(index - (this.#starts[p] as number), 0, item);
    this.#resize(p, index, 0, 1);
    this.#aspects[index] = this.#aspectOf(item);
    return true;
  }

  /** Records that a seen item's shape differs from what was guessed. */
  setAspect(index: number, aspect: number): void {
    if (index >= 0 && index < this.#length) this.#aspects[index] = aspect;
  }

  /** In page `p`, `removed` items at `at` become `added` ones: shapes after them shift, later pages start later or earlier. */
  #resize(p: number, at: number, removed: number, added: number): void {
    const delta = added - removed;
    const page = this.#pages[p];
    if (delta === 0 || !page) return;
    page.count += delta;
    this.#aspects = grow(this.#aspects, this.#length + delta);
    this.#aspects.copyWithin(at + added, at + removed, this.#length);
    this.#length += delta;
    for (let q = p + 1; q < this.#starts.length; q += 1) this.#starts[q] = (this.#starts[q] as number) + delta;
  }
}
