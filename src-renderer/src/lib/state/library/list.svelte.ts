// The Library's list: filters, sort and search, keyset pages from assets:list loaded as the grid
// scrolls, best matches from assets:search, the filter bar's counts, and live updates.
// Which assets a filter holds is decided by the core alone (its SQL, through assets:list and
// assets:matching): a changed asset is re-read and the core says whether this view shows it, so the
// counts, the grid and the viewer never disagree.
// Only the pages near what the grid shows are held (library/paged-list.ts): a page let go is fetched
// again with its own cursor when the view returns to it, and every read item's shape stays, so the
// layout of the whole list never needs the items themselves. Past the first page the list is mapped,
// not read: assets:layout gives each next page's cursor and its items' shapes (a byte each), in the
// background and ahead of the view, so a grid of a million lays out whole and fetches only the pages
// it comes near, wherever the user jumps. Reads go through `at`/`count`, which follow `version` (one
// bump per change of the list) for Svelte.
import { accountScope } from '../../account-scope.ts';
import type { ErrorInfo } from '@contract/errors.ts';
import type { AssetCountsInfo, AssetFilter, AssetInfo, AssetsChangedInfo } from '@contract/ipc/assets.ts';
import { ASSET_LAYOUT_PAGES, ASSET_PAGE_LIMIT, ASSET_SEARCH_LIMIT } from '@contract/ipc/assets.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import type { ModelInfo } from '@contract/ipc/models.ts';
import { layoutShape, shapeOfCode } from '@contract/shape-code.ts';
import { invoke, on } from '../../ipc.ts';
import { assetKey, type AssetKey } from '../../library/asset-key.ts';
import { localDayStart, nextLocalDay } from '../../library/format.ts';
import { assetAspect, clampShape } from '../../library/media-shape.ts';
import { PagedList } from '../../library/paged-list.ts';
import { serviceReach } from '../service-reach.svelte.ts';

export type KindFilter = 'all' | 'image' | 'video';
/** Results (what was generated) or Uploads (training photos and references), kept apart. */
export type LibrarySection = 'results' | 'uploads';
export type LibrarySort = 'newest' | 'oldest' | 'relevance';

/**
 * The on/off filters (offline, liked, favorite…), named as the core's filter names them
 * (assetFilterSchema's true/false fields): the bar toggles them, the core alone applies them.
 */
export type FlagFilter = {
  [K in keyof AssetFilter]-?: NonNullable<AssetFilter[K]> extends boolean ? K : never;
}[keyof AssetFilter];

/** The filter bar's counts for the flags that have one. */
const FLAG_COUNTS: Partial<Record<FlagFilter, 'offline' | 'liked' | 'favorites'>> = {
  offline: 'offline',
  liked: 'liked',
  favorite: 'favorites',
};

export interface LibraryFilters {
  kind: KindFilter;
  modelId: string | null;
  /** The flags switched on (offline: with a local copy; liked on the service; favorite: starred here). */
  flags: Partial<Record<FlagFilter, true>>;
  /** A hand-made collection; uploads and results alike. */
  collectionId: number | null;
  section: LibrarySection;
  /** Local calendar days (YYYY-MM-DD), both inclusive; '' = open. */
  dateFrom: string;
  dateTo: string;
}

const PAGE_SIZE = ASSET_PAGE_LIMIT.max;
/** FTS starts matching at two letters. */
const MIN_QUERY_LENGTH = 2;
const SEARCH_DEBOUNCE_MS = 150;
const PATCH_DELAY_MS = 250;
const MAX_PATCH = 100;
/** Items held either side of what the grid shows; pages wholly beyond are let go. */
const KEEP_AROUND = 1000;
/** Items past what the grid shows whose pages are read ahead. */
const READ_AHEAD = 60;
/** Pages mapped by one assets:layout call (50,000 items), one call per idle moment in the background. */
const MAP_PAGES = ASSET_LAYOUT_PAGES.default;
/** The shape of an item whose size nothing told (its page, once fetched, says more). */
const UNKNOWN_SHAPE = 1;

/** The one-byte shapes of a mapped page (base64) as the layout's shapes. */
function decodeShapes(base64: string): Float64Array {
  const text = atob(base64);
  const shapes = new Float64Array(text.length);
  for (let i = 0; i < text.length; i += 1) shapes[i] = shapeOfCode(text.charCodeAt(i), UNKNOWN_SHAPE);
  return shapes;
}

/**
 * The background map starts this long after the first page: the core serving the first screen's
 * thumbnails comes first (a call maps 50,000 items in ~25 ms, time the core answers nothing else).
 */
const MAP_START_MS = 1500;
/** The background map waits while the grid's view moves (a scroll): the frames are the user's. */
const MAP_QUIET_MS = 300;

/** Waits for the renderer to be idle (a frame is never delayed for the background map). */
const idle = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 16);
  });

const NO_FILTERS: LibraryFilters = {
  kind: 'all',
  modelId: null,
  flags: {},
  collectionId: null,
  section: 'results',
  dateFrom: '',
  dateTo: '',
};

class LibraryState {
  filters = $state<LibraryFilters>({ ...NO_FILTERS });
  /** What is typed; `query` follows it after a short pause. */
  queryText = $state('');
  query = $state('');
  /** The order chosen for browsing; a search shows best matches first unless the user picks a date order. */
  browseSort = $state<'newest' | 'oldest'>('newest');
  searchSort = $state<LibrarySort>('relevance');

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
  #debounce: ReturnType<typeof setTimeout> | undefined;
  #pendingPatch = new Map<string, AssetRefInfo>();
  #patchTimer: ReturnType<typeof setTimeout> | undefined;
  #account: string | null = null;

  constructor() {
    // The view opens the new account's list (LibraryView is made again for it): nothing to load here.
    accountScope.bind({
      reset: () => {
        this.reset();
        this.#account = null;
        this.#pendingPatch.clear();
        this.#seen.clear();
        this.models = [];
        this.error = null;
        this.loading = false;
      },
    });
  }
  /** Set by the grid: while the user is at the top, new assets simply appear. */
  atTop = true;

  readonly searching = $derived(this.query.length >= MIN_QUERY_LENGTH);
  readonly sort: LibrarySort = $derived(this.searching ? this.searchSort : this.browseSort);
  /** Narrowed by a filter (the section and a collection are places, not filters). */
  readonly filtered = $derived(
    this.filters.kind !== 'all' ||
      this.filters.modelId !== null ||
      Object.keys(this.filters.flags).length > 0 ||
      this.filters.dateFrom !== '' ||
      this.filters.dateTo !== '',
  );

  /** How many assets the current view holds, when the counts tell it without loading them all. */
  readonly expectedTotal: number | null = $derived.by(() => {
    const c = this.filters.section === 'uploads' ? this.uploadCounts : this.counts;
    if (!c || this.searching || this.filters.dateFrom || this.filters.dateTo || this.filters.collectionId !== null)
      return null;
    const { kind, modelId } = this.filters;
    const flags = Object.keys(this.filters.flags) as FlagFilter[];
    const active = [kind !== 'all', modelId !== null].filter(Boolean).length + flags.length;
    if (active === 0) return c.total;
    if (active > 1) return null;
    if (kind !== 'all') return kind === 'image' ? c.images : c.videos;
    if (flags[0]) {
      const count = FLAG_COUNTS[flags[0]];
      return count ? c[count] : null;
    }
    return c.byModel.find((m) => m.modelId === modelId)?.count ?? 0;
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
    this.#changed();
  }

  #changed(): void {
    this.version += 1;
  }

  readonly modelName = $derived.by(() => {
    const names = new Map(this.models.map((m) => [m.id, m.displayName]));
    return (id: string | null): string => (id === null ? 'No model' : (names.get(id) ?? id));
  });

  /** The assets:list filter for the current choices (query included: the list matches it too). */
  viewFilter(): AssetFilter {
    return { ...this.searchFilter(), ...(this.searching ? { query: this.query } : {}) };
  }

  /** The filter of the current view without the text (a smart collection saves it with the text). */
  searchFilter(): AssetFilter {
    const { kind, modelId, flags, collectionId, section, dateFrom, dateTo } = this.filters;
    const from = localDayStart(dateFrom);
    const to = localDayStart(dateTo);
    return {
      ...(collectionId !== null ? { collectionId } : { origin: section === 'uploads' ? 'uploaded' : 'generated' }),
      ...flags,
      ...(kind !== 'all' ? { kind } : {}),
      ...(modelId !== null ? { modelId } : {}),
      ...(from !== null ? { dateFrom: new Date(from).toISOString() } : {}),
      ...(to !== null ? { dateTo: new Date(nextLocalDay(to)).toISOString() } : {}),
    };
  }

  /** Which of these assets the current view holds, as the core's filter says; null when it could not say. */
  async #held(refs: readonly AssetRefInfo[], filter: AssetFilter): Promise<Set<string> | null> {
    if (refs.length === 0) return new Set();
    const result = await invoke('assets:matching', { filter, assets: refs.map((r) => ({ kind: r.kind, id: r.id })) });
    return result.ok ? new Set(result.value.map(assetKey)) : null;
  }

  async #fetchPage(generation: number): Promise<void> {
    const kind = this.filters.kind === 'all' ? undefined : this.filters.kind;
    // Best-match search knows nothing of collections: inside one, matches come in date order.
    if (this.searching && this.sort === 'relevance' && this.filters.collectionId === null) {
      const result = await invoke('assets:search', { query: this.query, kind, limit: ASSET_SEARCH_LIMIT.max });
      if (generation !== this.#generation) return;
      if (!result.ok) return this.#fail(result.error);
      // assets:search only narrows by kind; the core says which of its best matches the other filters keep.
      const held = await this.#held(result.value, this.searchFilter());
      if (generation !== this.#generation) return;
      if (!held) return this.#fail({ code: 'internal', message: 'The library could not apply the filters.' });
      this.list.clear();
      this.list.append(
        null,
        result.value.filter((a) => held.has(assetKey(a))),
      );
      this.hasMore = false;
      this.#changed();
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
    this.#changed();
    if (this.hasMore) void this.#mapInBackground(generation);
  }

  /** Maps the next pages from `cursor`: their cursors and shapes, no items (those come as the grid nears). */
  async #mapPages(cursor: string, generation: number): Promise<void> {
    const sort = this.sort === 'oldest' ? 'oldest' : 'newest';
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
    this.#changed();
  }

  /**
   * Maps the rest of the list while the renderer is idle and the view still, so the layout is whole
   * and any jump lands at once; while the view moves, only what it nears is mapped (show → ensureLoaded).
   */
  async #mapInBackground(generation: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, MAP_START_MS));
    while (this.hasMore && !this.error && generation === this.#generation) {
      await idle();
      const still = performance.now() - this.#lastMove;
      if (still < MAP_QUIET_MS) {
        await new Promise((resolve) => setTimeout(resolve, MAP_QUIET_MS - still));
        continue;
      }
      if (generation !== this.#generation) return;
      await this.loadMore();
    }
  }

  #listPage(cursor: string | null, limit: number) {
    const sort = this.sort === 'oldest' ? 'oldest' : 'newest';
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
        this.#changed();
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
    this.#changed();
    this.hasMore = true;
    this.loading = false;
    this.error = null;
    this.stale = false;
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

  setFilter<K extends keyof LibraryFilters>(name: K, value: LibraryFilters[K]): void {
    this.filters = { ...this.filters, [name]: value };
    void this.reload();
  }

  setDates(dateFrom: string, dateTo: string): void {
    this.filters = { ...this.filters, dateFrom, dateTo };
    void this.reload();
  }

  /** Clears the filters; the place (section, collection) stays. */
  clearFilters(): void {
    const { section, collectionId } = this.filters;
    this.filters = { ...NO_FILTERS, section, collectionId };
    void this.reload();
  }

  /** Switches one on/off filter. */
  toggleFlag(name: FlagFilter): void {
    const { [name]: on, ...others } = this.filters.flags;
    this.setFilter('flags', on ? others : { ...others, [name]: true });
  }

  /** Goes to a place: results, favourites, liked, uploads or a collection (filters start clean there). */
  go(place: { section?: LibrarySection; collectionId?: number | null; flag?: FlagFilter }): void {
    this.filters = {
      ...NO_FILTERS,
      flags: place.flag ? { [place.flag]: true } : {},
      section: place.section ?? 'results',
      collectionId: place.collectionId ?? null,
    };
    void this.reload();
  }

  /** Applies a saved search (a smart collection): its filters and its text. */
  applySearch(search: AssetFilter): void {
    const day = (iso: string | undefined, exclusiveEnd: boolean): string => {
      if (!iso) return '';
      const time = Date.parse(iso) - (exclusiveEnd ? 1 : 0);
      const d = new Date(time);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    this.filters = {
      ...NO_FILTERS,
      section: search.origin === 'uploaded' ? 'uploads' : 'results',
      kind: search.kind ?? 'all',
      modelId: search.modelId ?? null,
      // A filter's only true/false fields are its flags.
      flags: Object.fromEntries(
        Object.entries(search).filter(([, value]) => value === true),
      ) as LibraryFilters['flags'],
      dateFrom: day(search.dateFrom, false),
      dateTo: day(search.dateTo, true),
    };
    clearTimeout(this.#debounce);
    this.queryText = search.query ?? '';
    this.query = this.queryText.trim();
    if (this.searching) this.searchSort = 'relevance';
    void this.reload();
  }

  setSort(sort: LibrarySort): void {
    if (this.searching) this.searchSort = sort;
    else if (sort !== 'relevance') this.browseSort = sort;
    void this.reload();
  }

  /** Results follow the typing after a short pause. */
  setQueryText(text: string): void {
    this.queryText = text;
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => this.#applyQuery(), SEARCH_DEBOUNCE_MS);
  }

  #applyQuery(): void {
    const next = this.queryText.trim();
    const wasSearching = this.searching;
    this.query = next;
    // Too short to search and not searching before: nothing changes.
    if (!this.searching && !wasSearching) return;
    if (this.searching && !wasSearching) this.searchSort = 'relevance';
    void this.reload();
  }

  /**
   * Re-reads the changed assets and asks the core which of them this view holds: each is replaced,
   * dropped (it left the view, or the cache) or put in its place (it joined the view: downloaded
   * while "Offline" is on, starred while in Favourites).
   */
  async #patch(refs: AssetRefInfo[]): Promise<void> {
    const generation = this.#generation;
    const [fresh, held] = await Promise.all([
      Promise.all(refs.map((ref) => invoke('assets:get', ref))),
      this.#held(refs, this.viewFilter()),
    ]);
    if (generation !== this.#generation) return;
    if (!held) return void this.reload();
    let unplaced = false;
    refs.forEach((ref, i) => {
      const at = this.indexOf(ref);
      const result = fresh[i];
      if (!result) return;
      const shown = result.ok && held.has(assetKey(ref));
      if (at >= 0) {
        if (shown) this.list.set(at, result.value);
        else if (result.ok || result.error.code === 'not_found') this.list.remove(at);
      } else if (shown && !this.#place(result.value)) {
        unplaced = true;
      }
    });
    this.#changed();
    // A best-match list has no place to compute here: it is asked again. In date order a place
    // among pages let go (or a full page) cannot be taken here either: the list offers a reload.
    if (unplaced && this.sort === 'relevance') void this.reload();
    else if (unplaced) this.stale = true;
  }

  /**
   * Puts `asset` in its date-order place among the held items. True when placed, or when its place is
   * past what is read (a later page brings it); false when the place is unknown here.
   */
  #place(asset: AssetInfo): boolean {
    if (this.sort === 'relevance') return false;
    const time = Date.parse(asset.createdAt);
    const before = (other: AssetInfo): boolean =>
      this.sort === 'oldest' ? time < Date.parse(other.createdAt) : time > Date.parse(other.createdAt);
    const at = this.list.findIndex(before);
    if (at < 0 && this.hasMore) return true;
    const index = at < 0 ? this.list.length : at;
    // The item before the place must be held too, or the place may lie inside a page let go.
    if (index > 0 && !this.list.at(index - 1)) return false;
    return this.list.insert(index, asset, PAGE_SIZE);
  }

  #onChanged(change: AssetsChangedInfo): void {
    void this.loadCounts();
    // A handful of known assets is patched in place; hundreds (a library check) reload like new ones.
    const few = change.assets && change.assets.length <= MAX_PATCH ? change.assets : null;
    if (few && (change.reason === 'download' || change.reason === 'delete' || change.reason === 'organize')) {
      for (const ref of few) this.#pendingPatch.set(assetKey(ref), ref);
      // Throttled, not debounced: a steady stream of downloads still shows up four times a second.
      if (this.#patchTimer !== undefined) return;
      this.#patchTimer = setTimeout(() => {
        this.#patchTimer = undefined;
        const refs = [...this.#pendingPatch.values()];
        this.#pendingPatch.clear();
        void this.#patch(refs);
      }, PATCH_DELAY_MS);
      return;
    }
    // New assets (a refresh, finished jobs): show them at once if nothing would jump, else offer it.
    if (this.atTop || this.list.length <= PAGE_SIZE) void this.reload();
    else this.stale = true;
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

  listen(): () => void {
    const stops = [
      on('assets:changed', (change) => this.#onChanged(change)),
      on('models:changed', () => void this.loadCounts()),
    ];
    return () => {
      stops.forEach((stop) => stop());
      clearTimeout(this.#debounce);
      clearTimeout(this.#patchTimer);
      this.#patchTimer = undefined;
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
    this.filters = { ...NO_FILTERS };
    this.queryText = '';
    this.query = '';
    this.list.clear();
    this.#changed();
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
