// The demo account opens as a library in use: once its first refresh has brought the demo service's
// records, their hints become local favourites, two collections and the trained models' names, and
// the newest images are downloaded so the first screen shows real thumbnails. Runs once per demo
// database (a sync_state mark), never for a service account.
import type { Cache } from '../db/cache.ts';
import { DemoHintsRepo } from '../db/repos/demo-hints-repo.ts';

const DONE_KEY = 'demo.organized';
/** About a screen and a half of tiles; the rest stays on the "service", as in a real library. */
const DOWNLOAD_NEWEST = 36;

export interface DemoOrganized {
  favorites: number;
  collections: string[];
  labels: number;
  downloads: { kind: 'image'; id: string }[];
}

const hintsOf = new WeakMap<object, DemoHintsRepo>();

export function organizeDemoLibrary(cache: Cache, now: number): DemoOrganized | null {
  if (cache.syncState.get(DONE_KEY)) return null;
  let hints = hintsOf.get(cache.sqlite);
  if (!hints) {
    hints = new DemoHintsRepo(cache.sqlite);
    hintsOf.set(cache.sqlite, hints);
  }
  const repo = hints;
  if (!repo.any()) return null;
  return cache.transaction(() => {
    const favorites = cache.assets.setFavorite(repo.favoriteSeqs(), true).length;
    const existing = new Set(cache.collections.list().map((c) => c.name.toLowerCase()));
    const collections: string[] = [];
    for (const [name, seqs] of repo.collectionMembers()) {
      if (existing.has(name.toLowerCase())) continue;
      const id = cache.collections.create(name, null, now);
      cache.collections.add(id, seqs, now);
      collections.push(name);
    }
    let labels = 0;
    for (const { modelId, label } of repo.modelLabels()) {
      if (cache.models.get(modelId)?.label == null && cache.models.setLabel(modelId, label)) labels += 1;
    }
    cache.syncState.set(DONE_KEY, { at: now }, now);
    return { favorites, collections, labels, downloads: repo.newestImages(DOWNLOAD_NEWEST) };
  });
}
