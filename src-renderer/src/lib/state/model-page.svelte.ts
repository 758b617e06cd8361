// The open model's images as the cache knows them ('models:images'), newest first, page by page,
// filtered like the service's list (all, training inputs, outputs, references), and deletable.
import { accountBound } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { ImageListFilter } from '@contract/service.ts';
import { invoke, on } from '../ipc.ts';

const PAGE_SIZE = 48;

class ModelPageState {
  modelId = $state<string | null>(null);
  filter = $state<ImageListFilter>('all');
  images = $state<AssetInfo[]>([]);
  nextCursor = $state<string | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  deleting = $state(false);

  #generation = 0;

  constructor() {
    accountBound<ModelPageState>(
      this,
      () => ({
        modelId: null,
        filter: 'all',
        images: [],
        nextCursor: null,
        loading: false,
        error: null,
        deleting: false,
      }),
      { reset: () => (this.#generation += 1) },
    );
  }

  async open(modelId: string | null): Promise<void> {
    if (modelId === this.modelId) return;
    this.modelId = modelId;
    this.filter = 'all';
    await this.reload();
  }

  async setFilter(filter: ImageListFilter): Promise<void> {
    if (filter === this.filter) return;
    this.filter = filter;
    await this.reload();
  }

  /** The first page again (after a filter change, an upload, a deletion or a refresh). */
  async reload(): Promise<void> {
    const generation = ++this.#generation;
    this.images = [];
    this.nextCursor = null;
    await this.#page(null, generation);
  }

  async loadMore(): Promise<void> {
    if (this.nextCursor === null || this.loading) return;
    await this.#page(this.nextCursor, this.#generation);
  }

  async #page(cursor: string | null, generation: number): Promise<void> {
    const modelId = this.modelId;
    if (!modelId) return;
    this.loading = true;
    const result = await invoke('models:images', { modelId, imageType: this.filter, cursor, limit: PAGE_SIZE });
    if (generation !== this.#generation) return;
    this.loading = false;
    if (!result.ok) {
      this.error = result.error.message;
      return;
    }
    this.error = null;
    const seen = new Set(this.images.map((a) => a.id));
    this.images = [...this.images, ...result.value.items.filter((a) => !seen.has(a.id))];
    this.nextCursor = result.value.nextCursor;
  }

  /** Deletes on the service (DELETE /images/{id}); resolves with null or the reason it failed. */
  async deleteImage(asset: AssetInfo): Promise<string | null> {
    this.deleting = true;
    const result = await invoke('library:delete-remote', { assets: [{ kind: 'image', id: asset.id }] });
    this.deleting = false;
    if (!result.ok) return result.error.message;
    const refused = result.value.refused[0];
    if (refused) return refused.reason;
    this.images = this.images.filter((a) => a.id !== asset.id);
    return null;
  }

  /** Follows the cache: new or removed images reload the list; a download refreshes its tiles in place. */
  listen(): () => void {
    return on('assets:changed', (change) => {
      if (!change.kinds.includes('image')) return;
      if (change.reason !== 'download') {
        void this.reload();
        return;
      }
      const shown = new Set(this.images.map((a) => a.id));
      for (const ref of change.assets ?? []) if (ref.kind === 'image' && shown.has(ref.id)) void this.#refresh(ref.id);
    });
  }

  async #refresh(id: string): Promise<void> {
    const result = await invoke('assets:get', { kind: 'image', id });
    if (result.ok) this.images = this.images.map((a) => (a.id === id ? result.value : a));
  }
}

export const modelPage = new ModelPageState();
