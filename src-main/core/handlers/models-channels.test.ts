// models:create and models:delete through the real dispatcher against the emulator: the model is made
// or removed on the service, the cache follows at once, and a deleted model's queued uploads are cancelled.
import { modelName } from '../../contract/names.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import type { EventChannel } from '../../contract/ipc.ts';
import type { ModelDeletedInfo, ModelInfo } from '../../contract/ipc/models.ts';
import { createServiceClient, type ServiceClient } from '../api/service-client.ts';
import type { AccountDb } from '../db/account-db.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { createDispatcher, type Dispatch, type Handlers } from '../dispatch.ts';
import { createEventBus } from '../events.ts';
import { systemTime } from '../host/time.ts';
import { uploadServiceFromClient } from '../uploads/upload-service.ts';
import { browserMediaUrl } from '../library/library-host.ts';
import { silentLogger } from '../log/index.ts';
import { UploadQueue } from '../uploads/upload-queue.ts';
import { modelsHandlers } from './models.ts';
import { answered } from '../test-support/dispatch-results.ts';

let emulator: RunningEmulator;
let client: ServiceClient;
let cache: AccountDb;
let queue: UploadQueue;
let dispatch: Dispatch;
let dir: string;
let seen: { event: EventChannel; payload: unknown }[] = [];

const value = <T>(channel: string, args?: unknown) => answered<T>(dispatch, channel, args);

const photo = (shade: number): Promise<Buffer> =>
  sharp({ create: { width: 600, height: 600, channels: 3, background: { r: shade, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();

const asFile = async (name: string, shade: number) => ({
  name,
  bytesBase64: (await photo(shade)).toString('base64'),
});

beforeAll(async () => {
  emulator = await startEmulator({ seed: 11 });
  client = createServiceClient({
    baseUrl: emulator.url,
    getApiKey: () => 'demo-key',
    logger: silentLogger(),
    timing: { sleep: async () => {} },
  });
  cache = openMemoryCache();
  dir = mkdtempSync(join(tmpdir(), 'atelier-models-'));
  queue = new UploadQueue({
    cache,
    service: uploadServiceFromClient(client),
    time: systemTime,
    emit: () => {},
    stagingDir: join(dir, 'staging'),
  });
  const events = createEventBus();
  events.subscribe((event, payload) => seen.push({ event, payload }));
  const handlers = modelsHandlers({
    cache: () => cache,
    events,
    mediaUrlFor: browserMediaUrl,
    client: () => client,
    uploads: () => queue,
  });
  dispatch = createDispatcher(handlers as unknown as Handlers, (channel, error) => {
    throw new Error(`unexpected failure in ${channel}: ${String(error)}`);
  });
});
beforeEach(() => {
  seen = [];
});
afterAll(async () => {
  await queue.stop();
  cache.close();
  client.close();
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('models:create', () => {
  it('creates the model on the service, caches it with its local label and announces it', async () => {
    const created = await value<ModelInfo>('models:create', { modelType: ' style ', label: '  Ink drawings ' });
    expect(created).toMatchObject({
      label: 'Ink drawings',
      displayName: 'Ink drawings',
      modelType: 'style',
      status: 'new',
      usable: false,
      uploads: { trainingImages: 0, referenceImages: 0 },
    });
    expect((await client.getModel(created.id)).modelType).toBe('style');
    expect(await value<ModelInfo>('models:get', { id: created.id })).toEqual(created);
    expect(seen).toEqual([{ event: 'models:changed', payload: { reason: 'create', ids: [created.id] } }]);
  });

  it("leaves the type to the service's default and the label empty when not given", async () => {
    const created = await value<ModelInfo>('models:create', {});
    expect(created).toMatchObject({ label: null, displayName: modelName(created.id), modelType: 'person' });
  });

  it("passes the service's refusal on as data and caches nothing", async () => {
    const before = (await value<ModelInfo[]>('models:list')).length;
    const refused = await dispatch('models:create', { modelType: 'spaceship' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!refused.ok && refused.error.message).toContain('modelType');
    expect(await value<ModelInfo[]>('models:list')).toHaveLength(before);
    const tooLong = await dispatch('models:create', { label: 'x'.repeat(81) });
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'invalid_argument', field: 'label' } });
  });
});

describe('models:delete', () => {
  it('deletes the model and its images on the service, forgets them here, keeps downloaded copies and cancels its queued uploads', async () => {
    const model = await value<ModelInfo>('models:create', { label: 'To delete' });
    queue.start();
    await queue.add({
      modelID: model.id,
      type: 'modelInput',
      files: [await asFile('a.jpg', 10), await asFile('b.jpg', 60)],
    });
    await queue.idle();
    await queue.stop();
    const [kept, dropped] = cache.assets.syncKeys('image').filter((k) => k.model_id === model.id);
    expect(kept && dropped).toBeTruthy();
    cache.assets.setLocalFile(kept!.seq, { fileState: 'downloaded', localPath: 'images/kept.jpg' });
    // Stopped, so this one waits in the queue: deleting the model must not let it land later.
    const waiting = await queue.add({ modelID: model.id, type: 'modelInput', files: [await asFile('c.jpg', 120)] });
    expect(waiting.accepted).toHaveLength(1);
    expect((await value<ModelInfo>('models:get', { id: model.id })).uploads.trainingImages).toBe(2);

    seen = [];
    const deleted = await value<ModelDeletedInfo>('models:delete', { id: model.id });
    expect(deleted).toMatchObject({ id: model.id, imagesRemoved: 2 });
    expect(deleted.message).toContain(model.id);

    expect((await client.listModels()).map((m) => m.id)).not.toContain(model.id);
    expect(await dispatch('models:get', { id: model.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(cache.assets.getBySeq(dropped!.seq)).toBeUndefined();
    expect(cache.assets.getBySeq(kept!.seq)).toMatchObject({ remote_state: 'gone', file_state: 'downloaded' });
    expect(queue.list(model.id)).toEqual([]);
    expect(seen.map((s) => s.event)).toEqual(['models:changed', 'assets:changed']);
    expect(seen[0]?.payload).toEqual({ reason: 'delete', ids: [model.id] });
  });

  it('forgets a cached model the service had already deleted, and refuses an id it never knew', async () => {
    const model = await value<ModelInfo>('models:create', {});
    await client.deleteModel(model.id);
    expect(await value<ModelDeletedInfo>('models:delete', { id: model.id })).toMatchObject({ imagesRemoved: 0 });
    expect((await value<ModelInfo[]>('models:list')).map((m) => m.id)).not.toContain(model.id);
    expect(await dispatch('models:delete', { id: 'mdl_never_was' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
