// The models/assets/presets/sync channels through the real dispatcher (argument validation,
// errors as data) over a cache filled by a real refresh from the emulator.
import { modelName } from '../../contract/names.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import type { AssetInfo, AssetLayoutInfo, AssetPageInfo } from '../../contract/ipc/assets.ts';
import type { EventChannel } from '../../contract/ipc.ts';
import type { ModelInfo } from '../../contract/ipc/models.ts';
import type { SyncResultInfo, SyncStatusInfo } from '../../contract/ipc/sync.ts';
import { openTestSession, type TestSession } from '../account/test-support/test-session.ts';
import type { ServiceClient } from '../api/service-client.ts';
import type { AccountDb } from '../db/account-db.ts';
import { createDispatcher, type Dispatch, type Handlers } from '../dispatch.ts';
import { createEventBus } from '../events.ts';
import { createAccountSyncer } from '../sync/account-syncer.ts';
import { assetsHandlers } from './assets.ts';
import { modelsHandlers } from './models.ts';
import { presetsHandlers } from './presets.ts';
import { syncHandlers } from './sync.ts';
import { createServiceReach } from '../host/service-reach.ts';
import { browserMediaUrl } from '../library/library-host.ts';
import { answered } from '../test-support/dispatch-results.ts';

let emulator: RunningEmulator;
let session: TestSession;
let client: ServiceClient;
let cache: AccountDb;
let dispatch: Dispatch;
const seen: { event: EventChannel; payload: unknown }[] = [];

const value = <T>(channel: string, args?: unknown) => answered<T>(dispatch, channel, args);

beforeAll(async () => {
  emulator = await startEmulator({ seed: 5 });
  session = openTestSession(emulator.url);
  ({ client, cache } = session);
  await client.createModel({ modelType: 'style' });
  await client.submit({
    kind: 'image',
    body: { modelID: 'imagea', prompt: 'an owl reading by candlelight', numImages: 2 },
  });
  await client.submit({ kind: 'video', body: { modelID: 'videod-1.5', prompt: 'an owl taking flight' } });
  emulator.control.advanceClock(30 * 60_000);

  const events = createEventBus();
  events.subscribe((event, payload) => seen.push({ event, payload }));
  const syncer = createAccountSyncer(session, events);
  const handlers = {
    ...modelsHandlers({ cache: () => cache, events, mediaUrlFor: browserMediaUrl, client: () => client }),
    ...assetsHandlers({ cache: () => cache, mediaUrlFor: browserMediaUrl }),
    ...presetsHandlers({ cache: () => cache, mediaUrlFor: browserMediaUrl }),
    ...syncHandlers({ syncer: () => syncer, reach: createServiceReach({ events }) }),
  };
  // Only this file's channels are exercised; the others are never called here.
  dispatch = createDispatcher(handlers as unknown as Handlers, (channel, error) => {
    throw new Error(`unexpected failure in ${channel}: ${String(error)}`);
  });
});
afterAll(async () => {
  session.close();
  await emulator.close();
});

describe('cache channels', () => {
  it('sync:refresh fills the cache and announces what changed', async () => {
    const result = await value<SyncResultInfo>('sync:refresh', undefined);
    expect(result).toMatchObject({ scope: 'all', changed: true, assets: { added: 3, removed: 0 } });
    const events = seen.map((s) => s.event);
    expect(events).toEqual(
      expect.arrayContaining(['sync:status-changed', 'sync:changed', 'models:changed', 'assets:changed']),
    );
    expect(seen.find((s) => s.event === 'assets:changed')?.payload).toEqual({
      reason: 'sync',
      kinds: ['image', 'video'],
    });
    expect(await value<SyncStatusInfo>('sync:status')).toMatchObject({
      running: false,
      lastSyncedAt: result.syncedAt,
      lastError: null,
    });
    expect((await dispatch('sync:refresh', { scope: 'everything' })).ok).toBe(false);
  });

  it('models:* list, read and label models, and page their images', async () => {
    const models = await value<ModelInfo[]>('models:list');
    const mine = models.find((m) => m.modelType === 'style')!;
    expect(mine).toMatchObject({
      label: null,
      displayName: modelName(mine.id),
      status: 'new',
      usable: false,
      uploads: { trainingImages: 0, referenceImages: 0 },
    });
    const renamed = await value<ModelInfo>('models:rename', { id: mine.id, label: '  Ink style  ' });
    expect(renamed).toMatchObject({ label: 'Ink style', displayName: 'Ink style' });
    expect(seen.at(-1)).toEqual({ event: 'models:changed', payload: { reason: 'rename', ids: [mine.id] } });
    expect((await value<ModelInfo>('models:get', { id: mine.id })).label).toBe('Ink style');
    expect(await value<ModelInfo>('models:rename', { id: mine.id, label: null })).toMatchObject({
      label: null,
      displayName: modelName(mine.id),
    });

    const missing = await dispatch('models:get', { id: 'no-such-model' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const tooLong = await dispatch('models:rename', { id: mine.id, label: 'x'.repeat(81) });
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'invalid_argument', field: 'label' } });

    const page = await value<AssetPageInfo>('models:images', { modelId: 'imagea', limit: 1 });
    expect(page.items).toHaveLength(1);
    const next = await value<AssetPageInfo>('models:images', { modelId: 'imagea', limit: 1, cursor: page.nextCursor });
    expect(next.items[0]?.id).not.toBe(page.items[0]?.id);
    expect(next.nextCursor).toBeNull();
    expect((await value<AssetPageInfo>('models:images', { modelId: 'imagea', imageType: 'input' })).items).toEqual([]);
    expect(
      (await value<AssetPageInfo>('models:images', { modelId: 'imagea', imageType: 'output' })).items,
    ).toHaveLength(2);
  });

  it('assets:* list with filters and dates, read one, search and count', async () => {
    const all = await value<AssetPageInfo>('assets:list', undefined);
    expect(all.items).toHaveLength(3);
    const [video] = (await value<AssetPageInfo>('assets:list', { filter: { kind: 'video' } })).items;
    expect(video).toMatchObject({
      kind: 'video',
      modelId: 'videod-1.5',
      prompt: 'an owl taking flight',
      file: { state: 'remote', path: null },
    });
    expect(await value<AssetInfo>('assets:get', { kind: 'video', id: video!.id })).toEqual(video);
    expect(await dispatch('assets:get', { kind: 'image', id: video!.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });

    const created = Date.parse(video!.createdAt);
    const inRange = await value<AssetPageInfo>('assets:list', {
      filter: { dateFrom: new Date(created).toISOString(), dateTo: new Date(created + 1).toISOString(), kind: 'video' },
    });
    expect(inRange.items.map((a) => a.id)).toEqual([video!.id]);
    expect(await dispatch('assets:list', { filter: { dateFrom: 'last tuesday' } })).toMatchObject({
      ok: false,
      error: { field: 'filter.dateFrom' },
    });
    expect(await dispatch('assets:list', { limit: 501 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'limit' },
    });
    expect(await dispatch('assets:list', { cursor: 'bogus' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'cursor' },
    });
    expect(await dispatch('assets:list', { filter: { color: 'red' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });

    // The map of a view: a page's cursor and one shape byte per item (base64), paged like assets:list.
    const map = await value<AssetLayoutInfo>('assets:layout', { pages: 2, pageSize: 2 });
    expect(map.pages.map((p) => [p.cursor === null, atob(p.shapes).length])).toEqual([
      [true, 2],
      [false, 1],
    ]);
    expect(map.nextCursor).toBeNull();
    const second = await value<AssetPageInfo>('assets:list', { cursor: map.pages[1]!.cursor, limit: 2 });
    expect(second.items.map((a) => a.id)).toEqual([all.items[2]!.id]);
    expect(await dispatch('assets:layout', { pages: 201 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'pages' },
    });

    const owls = await value<AssetInfo[]>('assets:search', { query: 'ow candl' });
    expect(owls.map((a) => a.kind)).toEqual(['image', 'image']);
    // The request travels as its stored text (parsed only where used), whole.
    expect(JSON.parse(owls[0]?.paramsJson ?? 'null')).toMatchObject({
      modelID: 'imagea',
      prompt: 'an owl reading by candlelight',
    });
    expect(await value<AssetInfo[]>('assets:search', { query: 'owl', kind: 'video' })).toHaveLength(1);
    expect(await value('assets:counts', undefined)).toEqual({
      total: 3,
      images: 2,
      videos: 1,
      offline: 0,
      liked: 0,
      favorites: 0,
      picks: 0,
      rejects: 0,
      // Nothing rated yet: all three at 0 stars.
      byRating: [3, 0, 0, 0, 0, 0],
      byModel: [
        { modelId: 'imagea', count: 2 },
        { modelId: 'videod-1.5', count: 1 },
      ],
    });
  });

  it('presets:list returns the presets ordered for grouping', async () => {
    const presets = await value<{ tag: string; name: string; category: string }[]>('presets:list');
    expect(presets.length).toBeGreaterThan(3);
    const categories = presets.map((p) => p.category);
    const firstSeen = [...new Set(categories)];
    // Each category forms one contiguous run.
    expect(categories.filter((c, i) => i > 0 && c !== categories[i - 1]).length).toBe(firstSeen.length - 1);
  });
});
