// The Library list's date sections (lib/library/date-sections.ts decides them): counted by the core
// over the whole view with the same filter as its pages (`assets:sections`), kept in step with
// the live updates (an asset joining or leaving the view counts in its section), asked again when a
// new day begins (Today becomes Yesterday at local midnight). Only a list in date order has them.
import type { AssetFilter, AssetInfo } from '@contract/ipc/assets.ts';
import { invoke } from '../../ipc.ts';
import {
  dateSections,
  msUntilSectionsChange,
  sectionOf,
  shownSections,
  type DateSection,
  type ShownSection,
} from '../../library/date-sections.ts';
import type { LibrarySort } from './filters.svelte.ts';

/** What the sections need of the list they head. */
export interface SectionedList {
  readonly sort: LibrarySort;
  /** Counts the list's restarts: an answer for an earlier one is dropped. */
  readonly generation: number;
  viewFilter(): AssetFilter;
}

export class ListSections {
  /** The sections that hold anything, in the list's order; empty when the list has none (another sort). */
  shown = $state.raw<ShownSection[]>([]);
  readonly #list: SectionedList;
  readonly #clock: () => Date;
  #sections: DateSection[] = [];
  #counts: number[] = [];
  #order: 'newest' | 'oldest' = 'newest';
  #timer: ReturnType<typeof setTimeout> | undefined;

  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a clock reading, never mutated or watched
  constructor(list: SectionedList, clock: () => Date = () => new Date()) {
    this.#list = list;
    this.#clock = clock;
  }

  /** Counts the current view's sections again (the list is loaded again, or a day began). */
  async load(): Promise<void> {
    clearTimeout(this.#timer);
    const sort = this.#list.sort;
    if (sort !== 'newest' && sort !== 'oldest') return this.clear();
    const generation = this.#list.generation;
    const now = this.#clock();
    const sections = dateSections(now);
    const result = await invoke('assets:sections', {
      filter: this.#list.viewFilter(),
      sections: sections.map((section) => section.start),
    });
    if (generation !== this.#list.generation) return;
    if (!result.ok) return this.clear();
    this.#sections = sections;
    this.#counts = result.value;
    this.#order = sort;
    this.#show();
    this.#timer = setTimeout(() => void this.load(), msUntilSectionsChange(now));
  }

  /** No sections (a list not in date order, or none asked yet). */
  clear(): void {
    clearTimeout(this.#timer);
    this.#sections = [];
    this.#counts = [];
    this.shown = [];
  }

  /** An asset joined the view (the live updates placed it): its section counts it. */
  joined(asset: AssetInfo): void {
    this.#add(asset, 1);
  }

  /** An asset left the view: its section no longer counts it. */
  left(asset: AssetInfo): void {
    this.#add(asset, -1);
  }

  #add(asset: AssetInfo, delta: number): void {
    if (this.#sections.length === 0) return;
    const at = sectionOf(this.#sections, Date.parse(asset.createdAt));
    this.#counts[at] = Math.max(0, (this.#counts[at] ?? 0) + delta);
    this.#show();
  }

  #show(): void {
    this.shown = shownSections(this.#sections, this.#counts, this.#order);
  }
}
