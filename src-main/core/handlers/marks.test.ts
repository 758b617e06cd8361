// Ratings and flags through the real dispatcher over a seeded cache: set on one asset and on many,
// answered with the marks before (the undo), counted in assets:counts, kept by a sync, and bad
// input refused with a clear message and nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetCountsInfo, AssetInfo, AssetPageInfo } from '../../contract/ipc/assets.ts';
import type { AssetRefInfo } from '../../contract/ipc/library.ts';
import type { MarkResultInfo } from '../../contract/ipc/marks.ts';
import type { EventChannel } from '../../contract/ipc.ts';
import type { AccountDb } from '../db/account-db.ts';
import { resyncAsset, seedAssets } from '../db/test-support/seed-assets.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { createDispatcher, type Dispatch, type Handlers } from '../dispatch.ts';
import { createEventBus } from '../events.ts';
import { browserMediaUrl } from '../library/library-host.ts';
import { assetsHandlers } from './assets.ts';
import { collectionsHandlers } from './collections.ts';
import { marksHandlers } from './marks.ts';
import { answered, refusedWith } from '../test-support/dispatch-results.ts';

let cache: AccountDb;
let dispatch: Dispatch;
const seen: { event: EventChannel; payload: unknown }[] = [];

const value = <T>(channel: string, args?: unknown) => answered<T>(dispatch, channel, args);

const refusal = (channel: string, args?: unknown) => refusedWith(dispatch, channel, args);

const refs = async (filter: Record<string, unknown>, limit = 500): Promise<AssetRefInfo[]> =>
  (await value<AssetPageInfo>('assets:list', { filter, limit })).items.map(({ kind, id }) => ({ kind, id }));
const counts = () => value<AssetCountsInfo>('assets:counts', {});
const marksInDb = () => cache.sqlite.prepare('SELECT seq, rating, flag FROM assets ORDER BY seq').all();

beforeAll(() => {
  cache = openMemoryCache();
  seedAssets(cache, 300, { seed: 5 });
  const events = createEventBus();
  events.subscribe((event, payload) => seen.push({ event, payload }));
  const handlers = {
    ...assetsHandlers({ cache: () => cache, mediaUrlFor: browserMediaUrl }),
    ...collectionsHandlers({
      cache: () => cache,
      events,
      exportTo: () => Promise.reject(new Error('not used')),
    }),
    ...marksHandlers({ cache: () => cache, events }),
  } as unknown as Handlers;
  dispatch = createDispatcher(handlers, (channel, error) => {
    throw new Error(`${channel}: ${String(error)}`);
  });
});

afterAll(() => cache.close());

describe('assets:mark', () => {
  it('rates and flags, answers with the marks before, counts them and shows them on the asset', async () => {
    const before = await counts();
    expect(before).toMatchObject({ picks: 0, rejects: 0, byRating: [300, 0, 0, 0, 0, 0] });
    const [a, b, c] = (await refs({ kind: 'image' })).slice(0, 3) as [AssetRefInfo, AssetRefInfo, AssetRefInfo];

    const rated = await value<MarkResultInfo>('assets:mark', { assets: [a, b], rating: 4 });
    expect(rated).toEqual({
      marks: [
        { ...a, rating: 4, flag: null },
        { ...b, rating: 4, flag: null },
      ],
      previous: [
        { ...a, rating: 0, flag: null },
        { ...b, rating: 0, flag: null },
      ],
      changed: 2,
    });
    const event = seen.findLast((s) => s.event === 'assets:changed')?.payload;
    expect(event).toEqual({ reason: 'organize', kinds: ['image'], assets: expect.arrayContaining([a, b]) });
    expect(seen.at(-1)?.event).toBe('collections:changed');

    const flagged = await value<MarkResultInfo>('assets:mark', { assets: [b, c], flag: 'reject', rating: 2 });
    expect(flagged.previous).toEqual([
      { ...b, rating: 4, flag: null },
      { ...c, rating: 0, flag: null },
    ]);
    expect(flagged.marks).toEqual([
      { ...b, rating: 2, flag: 'reject' },
      { ...c, rating: 2, flag: 'reject' },
    ]);
    await value('assets:mark', { assets: [a], flag: 'pick' });
    expect(await counts()).toMatchObject({ picks: 1, rejects: 2, byRating: [297, 0, 2, 0, 1, 0] });
    const info = await value<AssetInfo>('assets:get', a);
    expect(info).toMatchObject({ rating: 4, flag: 'pick' });

    // Setting what is already there changes nothing and tells nobody.
    const events = seen.length;
    expect((await value<MarkResultInfo>('assets:mark', { assets: [a], rating: 4 })).changed).toBe(0);
    expect(seen).toHaveLength(events);

    // Undo: the previous marks sent back restore them (one call per distinct previous value).
    await value('assets:mark', { assets: [b], rating: 4, flag: null });
    await value('assets:mark', { assets: [c], rating: 0, flag: null });
    await value('assets:mark', { assets: [a], flag: null });
    expect(await counts()).toMatchObject({ picks: 0, rejects: 0, byRating: [298, 0, 0, 0, 2, 0] });
  });

  it('marks a selection of 500 at once; the event then asks for a reload instead of naming them', async () => {
    const many = [...(await refs({ kind: 'image' }, 500)), ...(await refs({ kind: 'video' }, 500))];
    const result = await value<MarkResultInfo>('assets:mark', { assets: many, flag: 'pick' });
    expect(result.changed).toBe(300);
    expect(result.marks.every((mark) => mark.flag === 'pick')).toBe(true);
    const event = seen.findLast((s) => s.event === 'assets:changed')?.payload as { assets?: unknown };
    expect(event.assets).toBeUndefined();
    expect((await counts()).picks).toBe(300);
    expect(await refs({ flag: 'pick' })).toHaveLength(300);
    await value('assets:mark', { assets: many, flag: null });
    expect((await counts()).picks).toBe(0);
  });

  it('keeps the marks through a sync of the same record', async () => {
    const [a] = await refs({ kind: 'image' });
    await value('assets:mark', { assets: [a], rating: 5, flag: 'pick' });
    const row = cache.assets.get(a!.kind, a!.id)!;
    resyncAsset(cache, row.kind, row.id, true);
    expect(cache.assets.get(row.kind, row.id)).toMatchObject({ rating: 5, flag: 'pick', liked: 1 });
    await value('assets:mark', { assets: [a], rating: 0, flag: null });
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const [a] = await refs({ kind: 'image' });
    const state = marksInDb();
    const count = seen.length;
    expect(await refusal('assets:mark', { assets: [a], rating: 6 })).toMatch(/0 to 5 stars/);
    expect(await refusal('assets:mark', { assets: [a], rating: 2.5 })).toMatch(/whole number/);
    expect(await refusal('assets:mark', { assets: [a], rating: '3' })).toMatch(/number of stars/);
    expect(await refusal('assets:mark', { assets: [a], flag: 'maybe' })).toMatch(/pick or reject/);
    expect(await refusal('assets:mark', { assets: [a] })).toMatch(/Give a rating .* or a flag/);
    expect(await refusal('assets:mark', { assets: [], rating: 1 })).toMatch(/at least one/);
    expect(await refusal('assets:mark', { assets: [a], rating: 1, extra: true })).toBeTruthy();
    expect(await refusal('assets:mark', { assets: [a, { kind: 'image', id: 'img_gone' }], rating: 3 })).toBe(
      'That item is no longer in the library; nothing was marked.',
    );
    // An asset is its kind and id: the right id under the other kind is not it.
    expect(await refusal('assets:mark', { assets: [{ kind: 'video', id: a!.id }], rating: 3 })).toBe(
      'That item is no longer in the library; nothing was marked.',
    );
    expect(marksInDb()).toEqual(state);
    expect(seen).toHaveLength(count);
  });

  it('marks an asset named twice once, answering for each time it was named', async () => {
    const [a, b] = (await refs({ kind: 'image' })).slice(10, 12) as [AssetRefInfo, AssetRefInfo];
    const result = await value<MarkResultInfo>('assets:mark', { assets: [a, b, a], rating: 3 });
    expect(result.changed).toBe(2);
    expect(result.marks).toEqual([a, b, a].map((ref) => ({ ...ref, rating: 3, flag: null })));
    expect(result.previous).toEqual([a, b, a].map((ref) => ({ ...ref, rating: 0, flag: null })));
    const event = seen.findLast((s) => s.event === 'assets:changed')?.payload as { assets?: AssetRefInfo[] };
    expect(event.assets).toHaveLength(2);
    expect(event.assets).toEqual(expect.arrayContaining([a, b]));
    await value('assets:mark', { assets: [a, b], rating: 0 });
  });
});

describe('filtering and sorting by marks', () => {
  it('filters by stars and flag, and pages by rating (most stars first, then newest) exactly once', async () => {
    const all = await refs({}, 500);
    expect(all).toHaveLength(300);
    // Ratings spread over the library: every 7th 5 stars, every 5th 3, every 3rd 1; every 11th rejected.
    const pick = (every: number) => all.filter((_, i) => i % every === 0);
    await value('assets:mark', { assets: pick(3), rating: 1 });
    await value('assets:mark', { assets: pick(5), rating: 3 });
    await value('assets:mark', { assets: pick(7), rating: 5 });
    await value('assets:mark', { assets: pick(11), flag: 'reject' });
    const db = cache.sqlite;
    const expected = (where: string) =>
      db.prepare(`SELECT kind, id FROM assets WHERE ${where} ORDER BY created_at DESC, seq DESC`).all();

    expect(await refs({ minRating: 3 })).toEqual(expected('rating >= 3'));
    expect(await refs({ minRating: 0 })).toEqual(expected('1'));
    expect(await refs({ flag: 'reject' })).toEqual(expected("flag = 'reject'"));
    expect(await refs({ flag: 'unflagged', minRating: 5 })).toEqual(expected('flag IS NULL AND rating >= 5'));
    const counts = await value<AssetCountsInfo>('assets:counts', {});
    expect(counts.rejects).toBe(pick(11).length);
    expect(counts.byRating.reduce((a, b) => a + b, 0)).toBe(300);

    const paged: AssetRefInfo[] = [];
    let cursor: string | null = null;
    do {
      const page: AssetPageInfo = await value<AssetPageInfo>('assets:list', { sort: 'rating', limit: 40, cursor });
      paged.push(...page.items.map(({ kind, id }) => ({ kind, id })));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(
      db.prepare('SELECT kind, id FROM assets ORDER BY rating DESC, created_at DESC, seq DESC').all(),
    );
    // A cursor of one sort is refused by another.
    const first = await value<AssetPageInfo>('assets:list', { sort: 'rating', limit: 10 });
    expect(await refusal('assets:list', { sort: 'newest', cursor: first.nextCursor })).toMatch(/not valid/);
    expect(await refusal('assets:list', { sort: 'stars' })).toMatch(/newest, oldest or rating/);
    expect(await refusal('assets:list', { filter: { flag: 'maybe' } })).toMatch(/pick, reject or unflagged/);

    await value('assets:mark', { assets: all, rating: 0, flag: null });
  });
});
