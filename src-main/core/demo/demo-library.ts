// The demo opens as a library in use: after its first refresh, favourites, collections, model names
// and the newest images on disk (library/demo-organize.ts says what; this says when). Once per demo
// database, never for a service account. The rest of its downloads wait a moment on a timer of the
// demo account's own lifetime, so leaving the demo before it fires cancels them.
import type { CollectionInfo } from '../../contract/ipc/collections.ts';
import type { AccountManager } from '../account/account-manager.ts';
import type { AccountServices } from '../account-services.ts';
import type { EventBus } from '../events.ts';
import { organizeDemoLibrary } from '../library/demo-organize.ts';

/** How long the demo's first-screen downloads have the machine before the rest of its library follows. */
export const DEMO_LATER_DOWNLOADS_MS = 4000;

export interface DemoLibraryDeps {
  events: EventBus;
  accounts: Pick<AccountManager, 'info'>;
  services: Pick<AccountServices, 'cache' | 'library' | 'lifetime'>;
  /** The collections as the `collections:list` channel answers them (told to the renderer). */
  listCollections(): CollectionInfo[] | Promise<CollectionInfo[]>;
  logError(message: string, error: unknown): void;
  /** Tests: a shorter wait. */
  laterDownloadsMs?: number;
}

/** Follows the demo's refreshes; returns the stop. */
export function followDemoLibrary(deps: DemoLibraryDeps): () => void {
  const { events, accounts, services, logError } = deps;
  return events.subscribe((event) => {
    if (event !== 'sync:changed' || accounts.info().mode !== 'demo') return;
    queueMicrotask(async () => {
      try {
        const organized = organizeDemoLibrary(services.cache(), Date.now());
        if (!organized) return;
        const lifetime = services.lifetime();
        events.emit('collections:changed', { collections: await deps.listCollections() });
        events.emit('assets:changed', { reason: 'organize', kinds: ['image', 'video'] });
        events.emit('models:changed', { reason: 'rename', ids: [] });
        const library = await services.library.library();
        library.download(organized.firstDownloads);
        // The rest once the first screen has had the machine to itself for a moment.
        if (organized.laterDownloads.length === 0) return;
        const later = organized.laterDownloads;
        lifetime.setTimeout(
          'demo downloads',
          () => {
            void services.library
              .library()
              .then((now) => now.download(later))
              .catch((error: unknown) => logError('demo downloads failed', error));
          },
          deps.laterDownloadsMs ?? DEMO_LATER_DOWNLOADS_MS,
        );
      } catch (error) {
        logError('organising the demo library failed', error);
      }
    });
  });
}
