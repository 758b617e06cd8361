// Favourites and collections through the real dispatcher over a seeded cache: stars counted in
// assets:counts and filtered by assets:list, collections hand-made and smart with their counts,
// validation as data, and export into a folder named after the collection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetCountsInfo, AssetPageInfo } from '../../contract/ipc/assets.ts';
import type { CollectionInfo } from '../../contract/ipc/collections.ts';
import type { AssetRefInfo, LibraryExportInfo } from '../../contract/ipc/library.ts';
import type { EventChannel } from '../../contract/ipc.ts';
import type { AccountDb } from '../db/account-db.ts';
import { resyncAsset, seedAssets } from '../db/test-support/seed-assets.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { createDispatcher, type Dispatch, type Handlers } from '../dispatch.ts';
import { createEventBus } from '../events.ts';
import { browserMediaUrl } from '../library/library-host.ts';
import { assetsHandlers } from './assets.ts';
import { collectionFolderName, collectionsHandlers } from './collections.ts';
import { answered, refusedWith } from '../test-support/dispatch-results.ts';

let cache: AccountDb;
let dispatch: Dispatch;
const seen: { event: EventChannel; payload: unknown }[] = [];
const exports: { refs: AssetRefInfo[]; to: string }[] = [];

const value = <T>(channel: string, args?: unknown) => answered<T>(dispatch, channel, args);

const refusal = (channel: string, args?: unknown) => refusedWith(dispatch, channel, args);

const refs = async (filter: Record<string, unknown>, limit = 500): Promise<AssetRefInfo[]> =>
  (await value<AssetPageInfo>('assets:list', { filter, limit })).items.map(({ kind, id }) => ({ kind, id }));

beforeAll(() => {
  cache = openMemoryCache();
  seedAssets(cache, 300, { seed: 3 });
  const events = createEventBus();
  events.subscribe((event, payload) => seen.push({ event, payload }));
  const handlers = {
    ...assetsHandlers({ cache: () => cache, mediaUrlFor: browserMediaUrl }),
    ...collectionsHandlers({
      cache: () => cache,
      events,
      exportTo: async (assets, to) => {
        exports.push({ refs: assets, to });
        return { exported: assets.length, skipped: [], to };
      },
    }),
  } as unknown as Handlers;
  dispatch = createDispatcher(handlers, (channel, error) => {
    throw new Error(`${channel}: ${String(error)}`);
  });
});

afterAll(() => cache.close());

describe('favourites', () => {
  it('stars locally, counts them, filters them, and never touches the service like', async () => {
    const before = await value<AssetCountsInfo>('assets:counts', {});
    expect(before.favorites).toBe(0);
    const three = (await refs({ kind: 'image' })).slice(0, 3);
    const likedBefore = cache.sqlite.prepare('SELECT sum(liked) FROM assets').pluck().get();
    expect(await value('favorites:set', { assets: three, favorite: true })).toEqual({ changed: 3 });
    expect(await value('favorites:set', { assets: three, favorite: true })).toEqual({ changed: 0 });
    expect((await value<AssetCountsInfo>('assets:counts', {})).favorites).toBe(3);
    expect(await refs({ favorite: true })).toEqual(expect.arrayContaining(three));
    expect(await refs({ favorite: true })).toHaveLength(3);
    expect(cache.sqlite.prepare('SELECT sum(liked) FROM assets').pluck().get()).toBe(likedBefore);
    const change = seen.findLast((s) => s.event === 'assets:changed')?.payload as { reason: string };
    expect(change.reason).toBe('organize');

    // A sync of the same record keeps the star (the upsert leaves local columns alone).
    const row = cache.assets.get(three[0]!.kind, three[0]!.id)!;
    resyncAsset(cache, row.kind, row.id, false);
    expect(cache.assets.get(row.kind, row.id)?.favorite).toBe(1);

    await value('favorites:set', { assets: [three[0]], favorite: false });
    expect((await value<AssetCountsInfo>('assets:counts', {})).favorites).toBe(2);
    const total = await value<AssetCountsInfo>('assets:counts', {});
    expect(total.total).toBe(300);
  });
});

describe('collections', () => {
  it('creates, adds (an item in several), counts, renames, refuses duplicates and deletes', async () => {
    const trip = await value<CollectionInfo>('collections:create', { name: '  Trip  ' });
    expect(trip).toMatchObject({ name: 'Trip', smart: false, count: 0 });
    const best = await value<CollectionInfo>('collections:create', { name: 'Best' });
    expect(await refusal('collections:create', { name: 'trip' })).toMatch(/already exists/);
    expect(await refusal('collections:create', { name: '   ' })).toMatch(/name/);

    const items = (await refs({ kind: 'image' })).slice(5, 8);
    expect((await value<{ added: number }>('collections:add', { id: trip.id, assets: items })).added).toBe(3);
    expect((await value<{ added: number }>('collections:add', { id: trip.id, assets: items })).added).toBe(0);
    await value('collections:add', { id: best.id, assets: items.slice(0, 1) });
    expect(await refs({ collectionId: trip.id })).toHaveLength(3);
    expect(await value('collections:membership', { assets: items })).toEqual(
      expect.arrayContaining([
        { collectionId: trip.id, count: 3 },
        { collectionId: best.id, count: 1 },
      ]),
    );
    const list = await value<CollectionInfo[]>('collections:list');
    expect(list.map((c) => [c.name, c.count])).toEqual([
      ['Best', 1],
      ['Trip', 3],
    ]);

    expect(await value<CollectionInfo>('collections:rename', { id: trip.id, name: 'Road trip' })).toMatchObject({
      name: 'Road trip',
      count: 3,
    });
    expect(await refusal('collections:rename', { id: trip.id, name: 'BEST' })).toMatch(/already exists/);
    await value('collections:remove', { id: trip.id, assets: items.slice(0, 1) });
    expect((await value<CollectionInfo[]>('collections:list')).find((c) => c.id === trip.id)?.count).toBe(2);

    await value('collections:delete', { id: best.id });
    expect(await refusal('collections:delete', { id: best.id })).toMatch(/no longer exists/);
    expect(seen.some((s) => s.event === 'collections:changed')).toBe(true);
  });

  it('a smart collection is a saved search: its count follows the library, it takes no items', async () => {
    const videos = await value<CollectionInfo>('collections:create', {
      name: 'Videos of the ocean',
      search: { kind: 'video', query: 'ocean' },
    });
    const expected = (await refs({ kind: 'video', query: 'ocean' })).length;
    expect(expected).toBeGreaterThan(0);
    expect(videos).toMatchObject({ smart: true, count: expected, search: { kind: 'video', query: 'ocean' } });
    const some = await refs({ kind: 'image' });
    expect(await refusal('collections:add', { id: videos.id, assets: some.slice(0, 1) })).toMatch(/smart/);
    expect(await refusal('collections:create', { name: 'Nested', search: { collectionId: 1 } })).toMatch(
      /Invalid arguments/,
    );
  });

  it('exports into a folder named after the collection; an empty one says so', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'atelier-coll-'));
    try {
      const picks = await value<CollectionInfo>('collections:create', { name: 'Picks: a/b' });
      expect(await refusal('collections:export', { id: picks.id, to: folder })).toMatch(/empty/);
      await value('collections:add', { id: picks.id, assets: (await refs({})).slice(0, 4) });
      const result = await value<LibraryExportInfo>('collections:export', { id: picks.id, to: folder });
      expect(result.to).toBe(join(folder, 'Picks a b'));
      expect(exports.at(-1)?.refs).toHaveLength(4);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(collectionFolderName('..')).toBe('Collection');
    expect(collectionFolderName(' My: best / of * 2025 ')).toBe('My best of 2025');
  });

  it('assets:matching tells which selected assets a filter shows', async () => {
    const images = (await refs({ kind: 'image' })).slice(0, 2);
    const videos = (await refs({ kind: 'video' })).slice(0, 1);
    expect(await value('assets:matching', { filter: { kind: 'image' }, assets: [...images, ...videos] })).toEqual(
      expect.arrayContaining(images),
    );
    expect(
      await value<AssetRefInfo[]>('assets:matching', { filter: { kind: 'image' }, assets: [...images, ...videos] }),
    ).toHaveLength(2);
  });
});
