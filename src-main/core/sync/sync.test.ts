// Sync against the emulator over loopback, through the real API client.
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import { AppError } from '../../contract/errors.ts';
import type { SyncResultInfo } from '../../contract/ipc/sync.ts';
import { createServiceClient, type ServiceClient } from '../api/service-client.ts';
import type { AccountDb } from '../db/account-db.ts';
import { assetFieldsFromImage } from '../api/server-records.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { silentLogger } from '../log/index.ts';
import { applySnapshot } from './apply-snapshot.ts';
import { fetchSnapshot } from './fetch-snapshot.ts';
import type { SyncSource } from './sync-source.ts';
import { createSyncer, LAST_FULL_SYNC } from './syncer.ts';

const MINUTE = 60_000;
let emulator: RunningEmulator;
let client: ServiceClient;
let cache: AccountDb;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 11 });
  client = createServiceClient({
    baseUrl: emulator.url,
    getApiKey: () => 'demo-key',
    logger: silentLogger(),
    timing: { sleep: async () => {}, random: () => 0.5 },
  });
});
afterAll(async () => {
  client.close();
  await emulator.close();
});
beforeEach(async () => {
  await emulator.control.reset();
  cache = openMemoryCache();
});
afterEach(() => cache.close());

async function png(): Promise<Uint8Array> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
}

/** A trained model with two training images, four public-model images and one video, all finished. */
async function populate(): Promise<{ modelId: string }> {
  const model = await client.createModel({ modelType: 'person' });
  for (const name of ['a.png', 'b.png']) {
    await client.uploadImage({ modelID: model.id, type: 'modelInput', file: { name, bytes: await png() } });
  }
  await client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'a red fox in snow', numImages: 3 } });
  await client.submit({
    kind: 'image',
    body: { modelID: 'imageb', prompt: 'harbor at dusk', preset: 'cinematic-noir' },
  });
  await client.submit({ kind: 'video', body: { modelID: 'videoa-3.1', prompt: 'waves breaking on rocks' } });
  emulator.control.advanceClock(30 * MINUTE);
  return { modelId: model.id };
}

/** A syncer on the emulator's virtual clock (the tests move it ahead so jobs finish). */
function syncerOn(source: SyncSource = client, extra: { now?: () => number } = {}) {
  return createSyncer({ cache, source, now: () => emulator.control.now(), ...extra });
}

function dump(c: AccountDb): unknown {
  const q = (sql: string) => c.sqlite.prepare(sql).all();
  return {
    models: q('SELECT * FROM models ORDER BY id'),
    assets: q('SELECT * FROM assets ORDER BY seq'),
    presets: q('SELECT * FROM presets ORDER BY tag'),
    counts: q('SELECT * FROM asset_counts ORDER BY 1, 2, 3, 4, 5'),
    fts: q("SELECT rowid FROM assets_fts WHERE assets_fts MATCH 'fox OR harbor OR waves' ORDER BY rowid"),
    state: q('SELECT * FROM sync_state ORDER BY key'),
  };
}

describe('sync against the emulator', () => {
  it('fills an empty cache with models, presets, every image and the videos', async () => {
    const { modelId } = await populate();
    const syncer = syncerOn();
    const result = await syncer.refresh();
    expect(result.scope).toBe('all');
    expect(result.changed).toBe(true);
    expect(result.models?.added).toBe(cache.models.list().length);
    expect(cache.models.get(modelId)).toMatchObject({ model_type: 'person' });
    expect(result.presets?.added).toBeGreaterThan(0);
    expect(cache.presets.list().length).toBe(result.presets?.added);
    expect(result.assets).toEqual({ added: 7, updated: 0, removed: 0, gone: 0 });
    expect(result.changedAssetKinds.sort()).toEqual(['image', 'video']);

    const counts = cache.assets.counts();
    expect(counts).toMatchObject({ total: 7, images: 6, videos: 1, offline: 0 });
    expect(cache.assets.counts('uploaded').total).toBe(2);
    const fox = cache.assets.list({ filter: { query: 'fox' }, limit: 10 }).rows;
    expect(fox).toHaveLength(3);
    expect(fox[0]).toMatchObject({ model_id: 'imagea', prompt: 'a red fox in snow', origin: 'generated' });
    expect(cache.assets.list({ filter: { query: 'noir' }, limit: 10 }).rows.map((r) => r.model_id)).toEqual(['imageb']);
    const [video] = cache.assets.list({ filter: { kind: 'video' }, limit: 10 }).rows;
    expect(video).toMatchObject({ prompt: 'waves breaking on rocks', model_id: 'videoa-3.1' });
    expect(video?.job_id).toBeTruthy();
    expect(syncer.status()).toMatchObject({ running: false, lastError: null, lastSyncedAt: result.syncedAt });
    expect(cache.syncState.get(LAST_FULL_SYNC)?.value).toMatchObject({ syncedAt: result.syncedAt });
  });

  it('writes nothing when nothing changed, and only the difference when something did', async () => {
    await populate();
    const syncer = syncerOn();
    await syncer.refresh();
    const again = await syncer.refresh();
    expect(again.changed).toBe(false);
    expect(again.assets).toEqual({ added: 0, updated: 0, removed: 0, gone: 0 });

    // Images of the caller's own model: its list is read whole, so a missing one was deleted.
    const [first, second] = cache.assets.list({ filter: { origin: 'uploaded' }, limit: 10 }).rows;
    cache.assets.setLocalFile(second!.seq, { fileState: 'downloaded', localPath: 'images/kept.png', bytes: 10 });
    cache.models.setLabel('free-general', 'My free model');
    await client.deleteImage(first!.id);
    await client.deleteImage(second!.id);
    await client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'a lighthouse', numImages: 1 } });
    emulator.control.advanceClock(30 * MINUTE);

    const third = await syncer.refresh();
    expect(third.assets).toEqual({ added: 1, updated: 0, removed: 1, gone: 1 });
    expect(cache.assets.get('image', first!.id)).toBeUndefined();
    expect(cache.assets.get('image', second!.id)).toMatchObject({
      remote_state: 'gone',
      file_state: 'downloaded',
      local_path: 'images/kept.png',
    });
    expect(cache.models.get('free-general')?.label).toBe('My free model');
  });

  it('leaves the cache exactly as it was when the refresh fails half-way', async () => {
    await populate();
    const syncer = syncerOn();
    await syncer.refresh();
    // The service moved on (new model, new images) but the video list now fails: models, presets
    // and images were already fetched when the failure hits, and none of it may be written.
    await client.createModel({ modelType: 'pet' });
    await client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'a second fox', numImages: 2 } });
    emulator.control.advanceClock(30 * MINUTE);
    const before = dump(cache);
    emulator.control.setFaults({
      rules: [{ method: 'GET', path: '/videos', serverError: { count: 100, status: 503 } }],
    });
    const failed = await syncer.refresh().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AppError);
    expect((failed as AppError).info.code).toBe('server');
    expect(dump(cache)).toEqual(before);
    expect(syncer.status()).toMatchObject({ running: false, lastError: { code: 'server' } });

    emulator.control.clearFaults();
    const recovered = await syncer.refresh();
    expect(recovered.assets?.added).toBe(2);
    expect(recovered.models?.added).toBe(1);
    expect(syncer.status().lastError).toBeNull();
  });

  it('fails cleanly on a malformed answer too', async () => {
    await populate();
    const before = dump(cache);
    emulator.control.setFaults({ rules: [{ path: '/models/:id/images', malformedJson: { count: 100 } }] });
    await expect(syncerOn().refresh()).rejects.toBeInstanceOf(AppError);
    expect(dump(cache)).toEqual(before);
  });

  it('never removes what the engine recorded while the fetch was running', async () => {
    const { modelId } = await populate();
    const startedAt = Date.now();
    const snapshot = await fetchSnapshot(client, { scope: 'all' });
    // A job finished meanwhile and the engine recorded its output (not in the fetched lists).
    cache.assets.upsertFromServer(
      assetFieldsFromImage({ id: 'fresh-output', modelID: modelId, type: 'output', url: 'https://x.test/fresh.png' }),
      startedAt + 1,
    );
    const changes = applySnapshot(cache, snapshot, { startedAt, now: startedAt + 2 });
    expect(changes.assets?.removed).toBe(0);
    expect(cache.assets.get('image', 'fresh-output')).toBeDefined();
    // A later refresh that still does not see it treats it as deleted on the service.
    await syncerOn(client, { now: () => startedAt + 10 }).refresh();
    expect(cache.assets.get('image', 'fresh-output')).toBeUndefined();
  });

  it("asks only for the images of the caller's own models; public-family results come from the job list", async () => {
    await populate();
    emulator.control.resetStats();
    const syncer = syncerOn();
    await syncer.refresh();
    const listed = (await client.listModels()).filter((m) => m.status.toLowerCase() !== 'deleted');
    const first = emulator.control.stats().byRoute;
    // One page per own model and none for the seven public family ids the service answers 404 for.
    expect(first['GET /models/:modelID/images']).toBe(listed.length);
    expect(cache.assets.list({ filter: { modelId: 'imagea' }, limit: 10 }).rows).toHaveLength(3);
    expect(cache.assets.list({ filter: { modelId: 'imageb' }, limit: 10 }).rows).toHaveLength(1);

    // A result made outside the app (straight through the API) appears after a refresh.
    const made = await client.submit({
      kind: 'image',
      body: { modelID: 'imagea-2', prompt: 'a tin robot', numImages: 2 },
    });
    emulator.control.advanceClock(30 * MINUTE);
    emulator.control.resetStats();
    const second = await syncer.refresh();
    expect(second.assets).toMatchObject({ added: 2, removed: 0 });
    const robots = cache.assets.list({ filter: { query: 'robot' }, limit: 10 }).rows;
    expect(robots.map((r) => r.model_id)).toEqual(['imagea-2', 'imagea-2']);
    expect(robots[0]?.job_id).toBe(made.jobId);
    const stats = emulator.control.stats().byRoute;
    expect(stats['GET /models/:modelID/images']).toBe(listed.length);
    expect(stats['GET /jobs/:id']).toBe(1);
    expect(stats['GET /images/:imageID']).toBe(2);

    // Nothing new: the job list is read once and nothing is looked up; cached public results stay.
    emulator.control.resetStats();
    const third = await syncer.refresh();
    expect(third.changed).toBe(false);
    const quiet = emulator.control.stats().byRoute;
    expect(quiet['GET /jobs']).toBe(1);
    expect(quiet['GET /jobs/:id'] ?? 0).toBe(0);
    expect(quiet['GET /images/:imageID'] ?? 0).toBe(0);
    expect(cache.assets.list({ filter: { modelId: 'imagea' }, limit: 10 }).rows).toHaveLength(3);
  });

  it('finds a public-family result whose job was still running at the last refresh', async () => {
    await populate();
    const syncer = syncerOn();
    await syncer.refresh();
    await client.submit({ kind: 'image', body: { modelID: 'imageb', prompt: 'a slow paper crane', numImages: 1 } });
    await syncer.refresh();
    expect(cache.assets.list({ filter: { query: 'crane' }, limit: 10 }).rows).toHaveLength(0);
    emulator.control.advanceClock(30 * MINUTE);
    const later = await syncer.refresh();
    expect(later.assets?.added).toBe(1);
    expect(cache.assets.list({ filter: { query: 'crane' }, limit: 10 }).rows.map((r) => r.model_id)).toEqual([
      'imageb',
    ]);
  });

  it('asks nothing of the job list when the source has no job calls, and keeps public results', async () => {
    await populate();
    await syncerOn().refresh();
    const listsOnly: SyncSource = {
      listModels: (c) => client.listModels(c),
      listPresets: (c) => client.listPresets(c),
      listVideos: (o) => client.listVideos(o),
      listModelImages: (id, o) => client.listModelImages(id, o),
    };
    const result = await syncerOn(listsOnly).refresh();
    expect(result.assets?.removed).toBe(0);
    expect(cache.assets.list({ filter: { modelId: 'imagea' }, limit: 10 }).rows).toHaveLength(3);
  });

  it('runs one refresh at a time: a second call joins the running one', async () => {
    await populate();
    emulator.control.resetStats();
    const syncer = syncerOn();
    const a = syncer.refresh();
    const b = syncer.refresh('models');
    expect(syncer.status().running).toBe(true);
    const [ra, rb] = (await Promise.all([a, b])) as [SyncResultInfo, SyncResultInfo];
    expect(rb).toBe(ra);
    const presetsOnly = await syncer.refresh('presets');
    expect(presetsOnly).toMatchObject({ scope: 'presets', models: null, assets: null, requests: 1 });
  });

  it('stops without writing when the account closes mid-refresh', async () => {
    await populate();
    const before = dump(cache);
    emulator.control.setFaults({ rules: [{ path: '/videos', latencyMs: 300 }] });
    const syncer = syncerOn();
    const pending = syncer.refresh();
    setTimeout(() => syncer.close(), 50);
    await expect(pending).rejects.toBeInstanceOf(Error);
    expect(dump(cache)).toEqual(before);
    await expect(syncer.refresh()).rejects.toThrow(/closing/);
  });
});
