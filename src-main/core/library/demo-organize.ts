// The demo account opens as a library in use: once its first refresh has brought the demo service's
// records, their hints become local favourites, two collections and the trained models' names, and
// everything is downloaded (as auto-download would have done), the newest images first so the
// first screen shows real thumbnails at once. Runs once per demo
// database (a sync_state mark), never for a service account.
import type { AccountDb } from '../db/account-db.ts';
import { DemoHintsRepo } from '../db/repos/demo-hints-repo.ts';

const DONE_KEY = 'demo.organized';
/** About a screen and a half of tiles come first; the rest follows in the background. */
const FIRST_SCREEN = 36;

export interface DemoOrganized {
  favorites: number;
  collections: string[];
  labels: number;
  /** The first screen's images: download at once. */
  firstDownloads: { kind: 'image' | 'video'; id: string }[];
  /** Everything else: download once the first screen is in (they would slow it down). */
  laterDownloads: { kind: 'image' | 'video'; id: string }[];
}

const hintsOf = new WeakMap<object, DemoHintsRepo>();

export function organizeDemoLibrary(cache: AccountDb, now: number): DemoOrganized | null {
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
    const order = repo.downloadOrder(FIRST_SCREEN);
    return {
      favorites,
      collections,
      labels,
      firstDownloads: order.slice(0, FIRST_SCREEN),
      laterDownloads: order.slice(FIRST_SCREEN),
    };
  });
}
