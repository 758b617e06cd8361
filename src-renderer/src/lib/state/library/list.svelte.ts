// The Library's list: keyset pages from assets:list loaded as the grid scrolls, best matches from
// assets:search, and the filter bar's counts; the filter, sort and search text are `filters`
// (filters.svelte.ts), live updates `live` (live.ts).
// Which assets a filter holds is decided by the core alone (its SQL, through assets:list and
// assets:matching).
// Only the pages near what the grid shows are held (library/paged-list.ts): a page let go is fetched
// again with its own cursor when the view returns to it, and every read item's shape stays, so the
// layout of the whole list never needs the items themselves. Past the first page the list is mapped,
// not read: assets:layout gives each next page's cursor and its items' shapes (a byte each), in the
// background and ahead of the view, so a grid of a million lays out whole and fetches only the pages
// it comes near, wherever the user jumps. Reads go through `at`/`count`, which follow `version` (one
// bump per change of the list) for Svelte.
import { accountScope } from '../../account-scope.ts';
import type { ErrorInfo } from '@contract/errors.ts';
import type { AssetCountsInfo, AssetFilter, AssetInfo } from '@contract/ipc/assets.ts';
import { ASSET_PAGE_LIMIT, ASSET_SEARCH_LIMIT } from '@contract/ipc/assets.ts';
import type { ModelInfo } from '@contract/ipc/models.ts';
import { layoutShape } from '@contract/shape-code.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { invoke } from '../../ipc.ts';
import { assetKey, type AssetKey } from '../../library/asset-key.ts';
import { countedTotal } from '../../library/filter-fields.ts';
import { decodeShapes, MAP_PAGES, MAP_START_MS, quietMoment } from '../../library/layout-map.ts';
import { assetAspect, clampShape } from '../../library/media-shape.ts';
import { PagedList } from '../../library/paged-list.ts';
import { serviceReach } from '../service-reach.svelte.ts';
import { ListSections } from './date-sections.svelte.ts';
import { LibraryFilters, type LibrarySort } from './filters.svelte.ts';
import { heldBy, LiveUpdates } from './live.ts';

const PAGE_SIZE = ASSET_PAGE_LIMIT.max;
/** Items held either side of what the grid shows; pages wholly beyond are let go. */
const KEEP_AROUND = 1000;
/** Items past what the grid shows whose pages are read ahead. */
const READ_AHEAD = 60;
class LibraryState {
  /** The filter, sort and search text; each change loads the list again. */
  readonly filters = new LibraryFilters(() => void this.reload());
  /** Keeps the list up to date with the core's changes. */
  readonly live = new LiveUpdates(this);
  /** The date headers of a list in date order. */
  readonly sections = new ListSections(this);
  /** Items a page holds. */
  readonly pageSize = PAGE_SIZE;

  /** The list as read so far; read it through `at`, `count` and `held` (they follow `version`). */
  readonly list = new PagedList<AssetInfo>((asset) => layoutShape(this.shapeOf(asset)));
  version = $state(0);
  hasMore = $state(true);
  loading = $state(false);
  error = $state<ErrorInfo | null>(null);
  /** Counts of results (generated); uploads are counted apart. */
  counts = $state<AssetCountsInfo | null>(null);
  uploadCounts = $state<AssetCountsInfo | null>(null);
  models = $state.raw<ModelInfo[]>([]);
  /** The cache changed in ways a patch cannot show (new assets): offer a reload. */
  stale = $state(false);

  #cursor: string | null = null;
  #generation = 0;
  #inflight: Promise<void> | null = null;
  /** Pages being fetched again. */
  #refilling = new Map<number, Promise<void>>();
  /** What the grid shows (first and last index), or null before it says: nothing is let go until then. */
  #shown: [number, number] | null = null;
  /** When the grid's view last moved (performance.now()). */
  #lastMove = 0;
  /** While above zero (select all, a shift-click range) nothing is let go. */
  #holding = 0;
  /** Shapes seen on screen (a thumbnail's own pixels) where the asset gave none. */
  #seen = new Map<AssetKey, number>();
  #account: string | null = null;

  constructor() {
    // The view opens the new account's list (LibraryView is made again for it): nothing to load here.
    accountScope.bind({
      reset: () => {
        this.reset();
        this.#account = null;
        this.live.reset();
        this.#seen.clear();
        this.models = [];
        this.error = null;
        this.loading = false;
      },
    });
  }
  /** Set by the grid: while the user is at the top, new assets simply appear. */
  atTop = true;

  get generation(): number {
    return this.#generation;
  }
  /** The list's order (the filters' choice). */
  get sort(): LibrarySort {
    return this.filters.sort;
  }

  /** How many assets the current view holds, when the counts tell it without loading them all. */
  readonly expectedTotal: number | null = $derived.by(() => {
    const filter = this.filters.current;
    const counts = filter.origin === 'uploaded' ? this.uploadCounts : filter.origin ? this.counts : null;
    if (!counts || this.filters.searching || filter.collectionId !== undefined) return null;
    return countedTotal(filter, counts);
  });

  /** Items read so far (held or let go). */
  readonly count = $derived.by(() => {
    void this.version;
    return this.list.length;
  });

  /** The held items in order (a few pages around the view; all of a short list). */
  readonly held = $derived.by(() => {
    void this.version;
    return Array.from(this.list.entries(), ([, asset]) => asset);
  });

  /** How many items are in memory now (the grid shows it as data-held). */
  readonly heldCount = $derived.by(() => {
    void this.version;
    return this.list.heldCount;
  });

  /** Grid slots: what is loaded, plus room for what is known (or guessed) to follow. */
  readonly slots = $derived(!this.hasMore ? this.count : Math.max(this.count, this.expectedTotal ?? this.count + 60));

  /** The item at `index` if its page is held. */
  at(index: number): AssetInfo | undefined {
    void this.version;
    return this.list.at(index);
  }

  /** An asset's shape for the grid: its own size, what was seen of it, else what was asked for. */
  shapeOf(asset: AssetInfo): number {
    return this.#seen.get(assetKey(asset)) ?? clampShape(assetAspect(asset));
  }

  /** A thumbnail showed the real shape of an asset that had no size: the layout follows. */
  noteShape(asset: AssetInfo, index: number, aspect: number): void {
    const shape = clampShape(aspect);
    if (Math.abs(shape / this.shapeOf(asset) - 1) < 0.01) return;
    this.#seen.set(assetKey(asset), shape);
    const at = this.list.at(index) === asset ? index : this.indexOf(asset);
    this.list.setAspect(at, layoutShape(shape));
    this.changed();
  }

  /** The list changed: what reads it follows. */
  changed(): void {
    this.version += 1;
  }

  readonly modelName = $derived.by(() => {
    const names = new Map(this.models.map((m) => [m.id, m.displayName]));
    return (id: string | null): string => (id === null ? 'No model' : (names.get(id) ?? id));
  });

  /** The assets:list filter for the current choices (query included: the list matches it too). */
  viewFilter(): AssetFilter {
    return this.filters.viewFilter();
  }

  async #fetchPage(generation: number): Promise<void> {
    const { kind, collectionId } = this.filters.current;
    // Best-match search knows nothing of collections: inside one, matches come in date order.
    if (this.filters.searching && this.sort === 'relevance' && collectionId === undefined) {
      const result = await invoke('assets:search', { query: this.filters.query, kind, limit: ASSET_SEARCH_LIMIT.max });
      if (generation !== this.#generation) return;
      if (!result.ok) return this.#fail(result.error);
      // assets:search only narrows by kind; the core says which of its best matches the other filters keep.
      const held = await heldBy(result.value, this.filters.searchFilter());
      if (generation !== this.#generation) return;
      if (!held) return this.#fail({ code: 'internal', message: 'The library could not apply the filters.' });
      this.list.clear();
      this.list.append(
        null,
        result.value.filter((a) => held.has(assetKey(a))),
      );
      this.hasMore = false;
      this.changed();
      return;
    }
    const cursor = this.#cursor;
    if (cursor !== null) return this.#mapPages(cursor, generation);
    const result = await this.#listPage(cursor, PAGE_SIZE);
    if (generation !== this.#generation) return;
    if (!result.ok) return this.#fail(result.error);
    this.list.append(cursor, result.value.items);
    this.#cursor = result.value.nextCursor;
    this.hasMore = result.value.nextCursor !== null;
    this.changed();
    if (this.hasMore) void this.#mapInBackground(generation);
  }

  /** Maps the next pages from `cursor`: their cursors and shapes, no items (those come as the grid nears). */
  async #mapPages(cursor: string, generation: number): Promise<void> {
    const sort = this.sort === 'relevance' ? 'newest' : this.sort;
    const result = await invoke('assets:layout', {
      filter: this.viewFilter(),
      sort,
      cursor,
      pages: MAP_PAGES,
      pageSize: PAGE_SIZE,
    });
    if (generation !== this.#generation) return;
    if (!result.ok) return this.#fail(result.error);
    for (const page of result.value.pages) this.list.appendUnread(page.cursor, decodeShapes(page.shapes));
    this.#cursor = result.value.nextCursor;
    this.hasMore = result.value.nextCursor !== null;
    this.changed();
  }

  /**
   * Maps the rest of the list while the renderer is idle and the view still, so the layout is whole
   * and any jump lands at once; while the view moves, only what it nears is mapped (show → ensureLoaded).
   */
  async #mapInBackground(generation: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, MAP_START_MS));
    while (this.hasMore && !this.error && generation === this.#generation) {
      await quietMoment(() => this.#lastMove);
      if (generation !== this.#generation) return;
      await this.loadMore();
    }
  }

  #listPage(cursor: string | null, limit: number) {
    const sort = this.sort === 'relevance' ? 'newest' : this.sort;
    return invoke('assets:list', { filter: this.viewFilter(), sort, cursor, limit });
  }

  /** Fetches a page that was let go again, with the cursor that first fetched it. */
  #refill(p: number): Promise<void> {
    const known = this.#refilling.get(p);
    if (known) return known;
    const page = this.list.page(p);
    if (!page || page.held) return Promise.resolve();
    const generation = this.#generation;
    const done = this.#listPage(page.cursor, Math.max(1, page.count))
      .then((result) => {
        if (generation !== this.#generation) return;
        if (!result.ok) return this.#fail(result.error);
        this.list.refill(p, result.value.items);
        this.changed();
      })
      .finally(() => {
        if (generation === this.#generation) this.#refilling.delete(p);
      });
    this.#refilling.set(p, done);
    return done;
  }

  /** Lets go of the pages far from what the grid shows (unless a range is being held). */
  #letGo(): void {
    if (!this.#shown || this.#holding > 0) return;
    this.list.keepOnly(this.#shown[0] - KEEP_AROUND, this.#shown[1] + KEEP_AROUND);
  }

  /** The grid shows `first`…`last`: pages near it are held or fetched (again), the rest let go. */
  show(first: number, last: number): void {
    if (this.#shown?.[0] !== first || this.#shown[1] !== last) this.#lastMove = performance.now();
    this.#shown = [first, last];
    this.#letGo();
    for (const p of this.list.missing(first - READ_AHEAD, last + READ_AHEAD)) void this.#refill(p);
    const wanted = Math.min(last + READ_AHEAD, this.slots - 1);
    if (this.hasMore && wanted >= this.list.length) void this.ensureLoaded(wanted);
  }

  /** Holds every item from `first` to `last` (reading and fetching again what it takes), then `use`s them. */
  async withRange<R>(first: number, last: number, use: (items: AssetInfo[]) => R): Promise<R> {
    this.#holding += 1;
    try {
      await this.ensureLoaded(last);
      const to = Math.min(last, this.list.length - 1);
      await Promise.all(this.list.missing(first, to).map((p) => this.#refill(p)));
      const items: AssetInfo[] = [];
      for (let i = first; i <= to; i += 1) {
        const asset = this.list.at(i);
        if (asset) items.push(asset);
      }
      return use(items);
    } finally {
      this.#holding -= 1;
      this.#letGo();
    }
  }

  #fail(error: ErrorInfo): void {
    this.error = error;
    this.hasMore = false;
  }

  /** Loads the next page (joins one already on its way). */
  loadMore(): Promise<void> {
    if (this.#inflight) return this.#inflight;
    if (!this.hasMore) return Promise.resolve();
    const generation = this.#generation;
    this.loading = true;
    this.#inflight = this.#fetchPage(generation).finally(() => {
      if (generation === this.#generation) {
        this.loading = false;
        this.#inflight = null;
      }
    });
    return this.#inflight;
  }

  /** Loads pages until `index` exists (or the list ends) and holds its page: the viewer asks for what it shows. */
  async ensureLoaded(index: number): Promise<void> {
    const generation = this.#generation;
    while (index >= this.list.length && this.hasMore && !this.error && generation === this.#generation) {
      await this.loadMore();
    }
    if (generation === this.#generation && index < this.list.length) {
      const p = this.list.pageOf(index);
      if (!this.list.page(p)?.held) await this.#refill(p);
    }
  }

  /** Starts the list again from the first page with the current choices. */
  reload(): Promise<void> {
    this.#generation += 1;
    this.#cursor = null;
    this.#inflight = null;
    this.#refilling.clear();
    this.#shown = null;
    this.list.clear();
    this.changed();
    this.hasMore = true;
    this.loading = false;
    this.error = null;
    this.stale = false;
    void this.sections.load();
    return this.loadMore();
  }

  async loadCounts(): Promise<void> {
    const [counts, uploads, models] = await Promise.all([
      invoke('assets:counts', { origin: 'generated' }),
      invoke('assets:counts', { origin: 'uploaded' }),
      invoke('models:list'),
    ]);
    if (counts.ok) this.counts = counts.value;
    if (uploads.ok) this.uploadCounts = uploads.value;
    if (models.ok) this.models = models.value;
  }

  /** The patched asset, if the list holds it (the asset view follows changes through this). */
  find(ref: AssetRefInfo): AssetInfo | undefined {
    return this.at(this.indexOf(ref));
  }

  /** Where a held asset sits in the list, or -1. */
  indexOf(ref: AssetRefInfo): number {
    void this.version;
    return this.list.findIndex((a) => a.kind === ref.kind && a.id === ref.id);
  }

  /** Follows the core's changes until the returned stop (the view's lifetime). */
  listen(): () => void {
    const stop = this.live.listen();
    return () => {
      stop();
      this.filters.stop();
    };
  }

  /**
   * Opening the view: counts and a fresh first page. The same account keeps its filters and search
   * (coming back to the Library finds it as it was left); another account starts clean.
   */
  async open(account: string): Promise<boolean> {
    const switched = account !== this.#account;
    if (switched) this.reset();
    this.#account = account;
    await Promise.all([this.loadCounts(), this.reload()]);
    if (this.error) serviceReach.noteError(this.error);
    return switched;
  }

  /** Forget everything (another account was opened: account-scope.ts calls it). */
  reset(): void {
    this.#generation += 1;
    this.filters.reset();
    this.list.clear();
    this.sections.clear();
    this.changed();
    this.#shown = null;
    this.counts = null;
    this.uploadCounts = null;
    this.hasMore = true;
    this.#cursor = null;
    this.#inflight = null;
    this.stale = false;
  }
}

export const library = new LibraryState();
