// Live updates of the Library's list: a changed asset is re-read and the core says whether this view
// holds it (assets:matching), so the counts, the grid and the viewer never disagree. A handful of known
// assets is patched in place; new assets (a refresh, finished jobs) show at once when nothing would
// jump, else the list offers a reload.
import type { AssetFilter, AssetInfo, AssetsChangedInfo } from '@contract/ipc/assets.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { invoke, on } from '../../ipc.ts';
import { assetKey } from '../../library/asset-key.ts';
import type { PagedList } from '../../library/paged-list.ts';
import type { ListSections } from './date-sections.svelte.ts';
import type { LibrarySort } from './filters.svelte.ts';

const PATCH_DELAY_MS = 250;
const MAX_PATCH = 100;

/** What the live updates need of the list they keep up to date. */
export interface LiveList {
  readonly list: PagedList<AssetInfo>;
  /** Counts the list's restarts: an answer for an earlier one is dropped. */
  readonly generation: number;
  readonly sort: LibrarySort;
  readonly hasMore: boolean;
  readonly pageSize: number;
  /** While the user is at the top, new assets simply appear. */
  readonly atTop: boolean;
  stale: boolean;
  /** The date sections: an asset joining or leaving the view counts in its own. */
  readonly sections: Pick<ListSections, 'joined' | 'left'>;
  viewFilter(): AssetFilter;
  indexOf(ref: AssetRefInfo): number;
  reload(): Promise<void>;
  loadCounts(): Promise<void>;
  /** The list changed (Svelte follows it). */
  changed(): void;
}

/** Which of these assets a filter holds, as the core says; null when it could not say. */
export async function heldBy(refs: readonly AssetRefInfo[], filter: AssetFilter): Promise<Set<string> | null> {
  if (refs.length === 0) return new Set();
  const result = await invoke('assets:matching', { filter, assets: refs.map((r) => ({ kind: r.kind, id: r.id })) });
  return result.ok ? new Set(result.value.map(assetKey)) : null;
}

export class LiveUpdates {
  readonly #host: LiveList;
  #pending = new Map<string, AssetRefInfo>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: LiveList) {
    this.#host = host;
  }

  /** Follows assets:changed and models:changed until the returned stop. */
  listen(): () => void {
    const stops = [
      on('assets:changed', (change) => this.#onChanged(change)),
      on('models:changed', () => void this.#host.loadCounts()),
    ];
    return () => {
      stops.forEach((stop) => stop());
      this.reset();
    };
  }

  /** Drops what waits to be patched. */
  reset(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
  }

  #onChanged(change: AssetsChangedInfo): void {
    const host = this.#host;
    void host.loadCounts();
    // A handful of known assets is patched in place; hundreds (a library check) reload like new ones.
    const few = change.assets && change.assets.length <= MAX_PATCH ? change.assets : null;
    if (few && (change.reason === 'download' || change.reason === 'delete' || change.reason === 'organize')) {
      for (const ref of few) this.#pending.set(assetKey(ref), ref);
      // Throttled, not debounced: a steady stream of downloads still shows up four times a second.
      if (this.#timer !== undefined) return;
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        const refs = [...this.#pending.values()];
        this.#pending.clear();
        void this.#patch(refs);
      }, PATCH_DELAY_MS);
      return;
    }
    // New assets (a refresh, finished jobs): show them at once if nothing would jump, else offer it.
    if (host.atTop || host.list.length <= host.pageSize) void host.reload();
    else host.stale = true;
  }

  /**
   * Re-reads the changed assets and asks the core which of them this view holds: each is replaced,
   * dropped (it left the view, or the cache) or put in its place (it joined the view: downloaded
   * while "Offline" is on, starred while in Favourites).
   */
  async #patch(refs: AssetRefInfo[]): Promise<void> {
    const host = this.#host;
    const generation = host.generation;
    const [fresh, held] = await Promise.all([
      Promise.all(refs.map((ref) => invoke('assets:get', ref))),
      heldBy(refs, host.viewFilter()),
    ]);
    if (generation !== host.generation) return;
    if (!held) return void host.reload();
    let unplaced = false;
    refs.forEach((ref, i) => {
      const at = host.indexOf(ref);
      const result = fresh[i];
      if (!result) return;
      const shown = result.ok && held.has(assetKey(ref));
      if (at >= 0) {
        if (shown) host.list.set(at, result.value);
        else if (result.ok || result.error.code === 'not_found') {
          const gone = host.list.at(at);
          host.list.remove(at);
          if (gone) host.sections.left(gone);
        }
      } else if (shown) {
        if (this.#place(result.value)) host.sections.joined(result.value);
        else unplaced = true;
      }
    });
    host.changed();
    // A best-match list has no place to compute here: it is asked again. In date order a place
    // among pages let go (or a full page) cannot be taken here either: the list offers a reload.
    if (unplaced && host.sort === 'relevance') void host.reload();
    else if (unplaced) host.stale = true;
  }

  /**
   * Puts `asset` in its date-order place among the held items. True when placed, or when its place is
   * past what is read (a later page brings it); false when the place is unknown here.
   */
  #place(asset: AssetInfo): boolean {
    const { list, sort } = this.#host;
    if (sort === 'relevance') return false;
    const time = Date.parse(asset.createdAt);
    const before = (other: AssetInfo): boolean =>
      sort === 'oldest' ? time < Date.parse(other.createdAt) : time > Date.parse(other.createdAt);
    const at = list.findIndex(before);
    if (at < 0 && this.#host.hasMore) return true;
    const index = at < 0 ? list.length : at;
    // The item before the place must be held too, or the place may lie inside a page let go.
    if (index > 0 && !list.at(index - 1)) return false;
    return list.insert(index, asset, this.#host.pageSize);
  }
}
