// The library host serves the open account's poster links even before the library's own code has
// loaded (it loads a timer turn after the start): the first screen's video tiles ask at once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { AccountSession } from '../account/types.ts';
import { remotePosterLink } from '../host/poster-links.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { createEventBus } from '../events.ts';
import { createSettings } from '../settings/settings.ts';
import { createMemoryStore } from '../settings/store.ts';
import { createLibraryHost } from './library-host.ts';

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

it('answers a poster link asked for before the library has started, once it has', async () => {
  const base = await mkdtemp(join(tmpdir(), 'atelier-library-host-'));
  const settings = createSettings({ store: createMemoryStore(), dataDir: base });
  settings.update({ libraryDir: join(base, 'Library'), autoDownload: false });
  const cache = openMemoryCache();
  const host = createLibraryHost({ dataDir: base, settings, events: createEventBus(), logError: () => undefined });
  cleanup = async () => {
    await host.close();
    cache.close();
    await rm(base, { recursive: true, force: true });
  };
  // No request reaches the service here: the poster link names no asset of this database.
  const session: AccountSession = {
    mode: 'service',
    cache,
    client: {} as AccountSession['client'],
    baseUrl: 'http://127.0.0.1:9',
    area: '',
  };
  host.open(session);
  expect(host.current()).toBeNull(); // its code loads a timer turn after the start

  const reply = await host.serveMedia({ path: remotePosterLink('v-not-yet') });
  expect(reply.status).toBe(200);
  expect(reply.headers['Content-Type']).toBe('image/webp');
  expect(host.current()).not.toBeNull();
});
