// The Library's local organisation: favourites (a star kept on this computer; the service's "liked"
// cannot be set through its API) and collections (hand-made, or smart = a saved search), live.
import { accountBound } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { CollectionInfo, CollectionSearchInfo } from '@contract/ipc/collections.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { invoke, on } from '../ipc.ts';
import { refOf } from '../library/asset-key.ts';
import { withEntries } from '../library/collections.ts';
import { formatCount } from '../library/format.ts';
import { toasts } from './toasts.svelte.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

const NONE: ReadonlyMap<number, boolean> = withEntries<number, boolean>(new Map(), []);

class LibraryCollections {
  list = $state.raw<CollectionInfo[]>([]);
  loaded = $state(false);
  /** Favourites toggled here and not yet confirmed by the core (so the star answers at once). */
  #pending = $state.raw<ReadonlyMap<string, boolean>>(new Map());

  constructor() {
    accountBound<LibraryCollections>(this, () => ({ list: [], loaded: false }), {
      reset: () => (this.#pending = new Map()),
      reload: () => this.load(),
    });
  }

  readonly handMade = $derived(this.list.filter((c) => !c.smart));

  byId(id: number | null): CollectionInfo | undefined {
    return id === null ? undefined : this.list.find((c) => c.id === id);
  }

  async load(): Promise<void> {
    const result = await invoke('collections:list');
    if (result.ok) this.list = result.value;
    this.loaded = true;
  }

  listen(): () => void {
    return on('collections:changed', ({ collections }) => {
      this.list = collections;
    });
  }

  /** The star as shown: a pending toggle wins over the asset's last known state. */
  isFavorite(asset: AssetInfo): boolean {
    return this.#pending.get(`${asset.kind}:${asset.id}`) ?? asset.favorite;
  }

  /** Stars or unstars; several assets take the star of the first one flipped (like a mail client). */
  async toggleFavorite(assets: readonly AssetInfo[]): Promise<void> {
    const first = assets[0];
    if (!first) return;
    const favorite = !this.isFavorite(first);
    await this.setFavorite(assets, favorite);
  }

  async setFavorite(assets: readonly AssetInfo[], favorite: boolean): Promise<boolean> {
    const keys = assets.map((asset) => `${asset.kind}:${asset.id}`);
    this.#pending = withEntries(
      this.#pending,
      keys.map((key) => [key, favorite] as const),
    );
    const result = await invoke('favorites:set', { assets: assets.map(refOf), favorite });
    /** Lets go of our pending stars (not those a later toggle set since). */
    const settle = () => {
      this.#pending = withEntries(
        this.#pending,
        [],
        keys.filter((key) => this.#pending.get(key) === favorite),
      );
    };
    if (!result.ok) {
      settle();
      toasts.error(result.error.message);
      return false;
    }
    // Kept until the list is patched with the core's answer (assets:changed, a moment later).
    setTimeout(settle, 1500);
    if (assets.length > 1) {
      toasts.info(
        `${favorite ? 'Added' : 'Removed'} ${plural(assets.length, 'item')} ${favorite ? 'to' : 'from'} Favourites.`,
      );
    }
    return true;
  }

  async create(name: string, search?: CollectionSearchInfo): Promise<CollectionInfo | null> {
    const result = await invoke('collections:create', search ? { name, search } : { name });
    if (!result.ok) {
      toasts.error(result.error.message);
      return null;
    }
    this.#upsert(result.value);
    return result.value;
  }

  async rename(id: number, name: string): Promise<boolean> {
    const result = await invoke('collections:rename', { id, name });
    if (!result.ok) {
      toasts.error(result.error.message);
      return false;
    }
    this.#upsert(result.value);
    return true;
  }

  async remove(id: number): Promise<boolean> {
    const result = await invoke('collections:delete', { id });
    if (!result.ok) {
      toasts.error(result.error.message);
      return false;
    }
    this.list = this.list.filter((c) => c.id !== id);
    return true;
  }

  async add(id: number, refs: AssetRefInfo[]): Promise<boolean> {
    if (refs.length === 0) return false;
    const result = await invoke('collections:add', { id, assets: refs });
    if (!result.ok) {
      toasts.error(result.error.message);
      return false;
    }
    this.#upsert(result.value.collection);
    const { added, collection } = result.value;
    const already = refs.length - added;
    toasts.info(
      added === 0
        ? `Already in “${collection.name}”.`
        : `Added ${plural(added, 'item')} to “${collection.name}”${already > 0 ? ` (${formatCount(already)} already there)` : ''}.`,
    );
    return true;
  }

  async removeItems(id: number, refs: AssetRefInfo[]): Promise<boolean> {
    const result = await invoke('collections:remove', { id, assets: refs });
    if (!result.ok) {
      toasts.error(result.error.message);
      return false;
    }
    this.#upsert(result.value.collection);
    toasts.info(`Removed ${plural(result.value.removed, 'item')} from “${result.value.collection.name}”.`);
    return true;
  }

  /** Which hand-made collections hold all (true) or some (false) of these assets. */
  async membership(refs: AssetRefInfo[]): Promise<ReadonlyMap<number, boolean>> {
    const result = refs.length > 0 ? await invoke('collections:membership', { assets: refs }) : null;
    return withEntries(
      NONE,
      result?.ok ? result.value.map((m) => [m.collectionId, m.count >= refs.length] as const) : [],
    );
  }

  async exportTo(id: number, folder: string): Promise<boolean> {
    const result = await invoke('collections:export', { id, to: folder });
    if (!result.ok) {
      toasts.error(result.error.message);
      return false;
    }
    const { exported, skipped, to } = result.value;
    const message = `Exported ${plural(exported, 'file')} with JSON sidecars to ${to}.`;
    if (skipped.length > 0) {
      toasts.show('warning', `${message} Skipped ${formatCount(skipped.length)} not downloaded yet.`);
    } else toasts.info(message);
    return true;
  }

  #upsert(collection: CollectionInfo): void {
    const others = this.list.filter((c) => c.id !== collection.id);
    this.list = [...others, collection].sort(
      (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id,
    );
  }
}

export const collections = new LibraryCollections();
