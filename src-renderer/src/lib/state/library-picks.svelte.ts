// The newest library items the Create panels offer as references (the "From the library" strip): images,
// and videos for models that take reference videos. Only items with a link on the service; live.
// Results only: training photos and reference uploads stay out unless asked for (includeUploads).
import { accountBound } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { AssetKindInfo } from '@contract/ipc/library.ts';
import { invoke, on } from '../ipc.ts';

const PER_KIND = 24;
const RELOAD_DELAY_MS = 300;

const sendable = (asset: AssetInfo): boolean => asset.url !== null && !asset.removedFromService;

class LibraryPicksState {
  images = $state.raw<AssetInfo[]>([]);
  videos = $state.raw<AssetInfo[]>([]);
  loaded = $state(false);
  /** Offer uploads (training photos, earlier references) too. */
  includeUploads = $state(false);

  constructor() {
    accountBound<LibraryPicksState>(this, () => ({ images: [], videos: [], loaded: false }));
  }

  async load(): Promise<void> {
    const kinds: AssetKindInfo[] = ['image', 'video'];
    const [images, videos] = await Promise.all(
      kinds.map((kind) =>
        invoke('assets:list', {
          filter: this.includeUploads ? { kind } : { kind, origin: 'generated' },
          sort: 'newest',
          limit: PER_KIND,
        }),
      ),
    );
    if (images?.ok) this.images = images.value.items.filter(sendable);
    if (videos?.ok) this.videos = videos.value.items.filter(sendable);
    this.loaded = true;
  }

  setIncludeUploads(include: boolean): void {
    this.includeUploads = include;
    void this.load();
  }

  /** Reloads (once, shortly after) whenever the library changes; returns the unsubscribe. */
  listen(): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = on('assets:changed', () => {
      clearTimeout(timer);
      timer = setTimeout(() => void this.load(), RELOAD_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }
}

export const libraryPicks = new LibraryPicksState();
