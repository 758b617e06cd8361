// The Library's filter, sort and search text. The filter is the contract's AssetFilter held as is
// (the place, results, uploads or a collection, is its origin or collectionId); a saved search
// (smart collection) is applied as is and compared with sameFilter, so what is saved, what is shown
// and what is current cannot disagree. Every change asks the list to load again (`onChange`).
import { sameFilter, type AssetFilter } from '@contract/ipc/assets.ts';
import type { CollectionSearchInfo } from '@contract/ipc/collections.ts';
import { filterDays, narrowing, type FilterField, type FlagField } from '../../library/filter-fields.ts';
import { localDayStart, nextLocalDay } from '../../library/format.ts';

/** Results (what was generated) or Uploads (training photos and references), kept apart. */
export type LibrarySection = 'results' | 'uploads';
export type LibrarySort = 'newest' | 'oldest' | 'rating' | 'relevance';
/** A place in the side bar: results, favourites, liked, uploads or a collection. */
export interface LibraryPlace {
  section?: LibrarySection;
  collectionId?: number | null;
  flag?: FlagField;
  /** Picks or Rejected: the results with that mark (the filter's `flag` field). */
  marked?: 'pick' | 'reject';
}

/** FTS starts matching at two letters. */
const MIN_QUERY_LENGTH = 2;
const SEARCH_DEBOUNCE_MS = 150;

/** The filter of a place with nothing narrowing it. */
const placeFilter = ({ section, collectionId }: LibraryPlace): AssetFilter =>
  collectionId != null ? { collectionId } : { origin: section === 'uploads' ? 'uploaded' : 'generated' };

/** A local day (YYYY-MM-DD) as the ISO time it starts (or, as an exclusive end, the next day starts); '' = open. */
function dayBound(day: string, exclusiveEnd: boolean): string | undefined {
  const start = localDayStart(day);
  if (start === null) return undefined;
  return new Date(exclusiveEnd ? nextLocalDay(start) : start).toISOString();
}

/** Sets or removes one field (undefined: the field does not narrow). */
function withField<K extends FilterField>(
  filter: AssetFilter,
  field: K,
  value: AssetFilter[K] | undefined,
): AssetFilter {
  const { [field]: _old, ...others } = filter;
  return value === undefined ? others : { ...others, [field]: value };
}

export class LibraryFilters {
  /** The filter as the core applies it, but for the text (which follows the typing). */
  current = $state<AssetFilter>(placeFilter({}));
  /** What is typed; `query` follows it after a short pause. */
  queryText = $state('');
  query = $state('');
  /** The order chosen for browsing; a search shows best matches first unless the user picks a date order. */
  browseSort = $state<'newest' | 'oldest' | 'rating'>('newest');
  searchSort = $state<LibrarySort>('relevance');

  readonly #onChange: () => void;
  #debounce: ReturnType<typeof setTimeout> | undefined;

  /** `onChange` loads the list again with the new choices. */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  readonly searching = $derived(this.query.length >= MIN_QUERY_LENGTH);
  readonly sort: LibrarySort = $derived(this.searching ? this.searchSort : this.browseSort);
  /** Narrowed by a filter (the section and a collection are places, not filters). */
  readonly filtered = $derived(narrowing(this.current).length > 0);
  /** A hand-made collection shown, or null. */
  readonly collectionId = $derived(this.current.collectionId ?? null);
  /** Uploads (outside a collection). */
  readonly inUploads = $derived(this.current.collectionId === undefined && this.current.origin === 'uploaded');
  /** The date filter's local days, both inclusive ('' = open). */
  readonly days = $derived(filterDays(this.current));

  /** The assets:list filter for the current choices (query included: the list matches it too). */
  viewFilter(): AssetFilter {
    return this.searching ? { ...this.current, query: this.query } : { ...this.current };
  }

  /** The filter of the current view without the text. */
  searchFilter(): AssetFilter {
    return { ...this.current };
  }

  /** Whether the view shows exactly this saved search (its smart collection is the current place). */
  shows(search: CollectionSearchInfo): boolean {
    return sameFilter(search, this.viewFilter());
  }

  #set(filter: AssetFilter): void {
    this.current = filter;
    this.#onChange();
  }

  /** Sets one field (kind, model, …); undefined: any. */
  set<K extends FilterField>(field: K, value: AssetFilter[K] | undefined): void {
    this.#set(withField(this.current, field, value));
  }

  /** Sets the date range from local days ('' = open), both inclusive. */
  setDays(fromDay: string, toDay: string): void {
    const from = withField(this.current, 'dateFrom', dayBound(fromDay, false));
    this.#set(withField(from, 'dateTo', dayBound(toDay, true)));
  }

  /** Switches one on/off filter (on: only those; off: it does not narrow). */
  toggle(flag: FlagField): void {
    this.set(flag, this.current[flag] === true ? undefined : true);
  }

  /** Clears the filters; the place (section, collection) stays. */
  clear(): void {
    const { origin, collectionId } = this.current;
    this.#set({ ...(origin !== undefined ? { origin } : {}), ...(collectionId !== undefined ? { collectionId } : {}) });
  }

  /** Goes to a place: results, favourites, liked, picks, rejected, uploads or a collection (filters start clean there). */
  go(place: LibraryPlace): void {
    this.#set({
      ...placeFilter(place),
      ...(place.flag ? { [place.flag]: true } : {}),
      ...(place.marked ? { flag: place.marked } : {}),
    });
  }

  /** Applies a saved search (a smart collection) as is: its filters and its text. */
  apply(search: CollectionSearchInfo): void {
    const { query, ...filter } = search;
    clearTimeout(this.#debounce);
    this.queryText = query ?? '';
    this.query = this.queryText.trim();
    if (this.searching) this.searchSort = 'relevance';
    this.#set(filter);
  }

  setSort(sort: LibrarySort): void {
    if (this.searching) this.searchSort = sort;
    else if (sort !== 'relevance') this.browseSort = sort;
    this.#onChange();
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
    this.#onChange();
  }

  /** Stops a pending search (the view closed). */
  stop(): void {
    clearTimeout(this.#debounce);
  }

  /** Back to the results, nothing typed (another account). */
  reset(): void {
    clearTimeout(this.#debounce);
    this.current = placeFilter({});
    this.queryText = '';
    this.query = '';
  }
}
