// The upload queue against the emulator: every refusal has its reason and nothing refused is
// sent; accepted files upload with progress, and failures can be retried or removed.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadInfo } from '../../contract/ipc/uploads.ts';
import { aggregateProgress, type ProgressAggregate } from '../host/progress.ts';
import { uploadServiceFromClient } from './upload-service.ts';
import { startEngineHarness, type EngineHarness } from '../jobs/test-support/engine-harness.ts';
import { openAccountDb } from '../db/account-db.ts';
import { WorkClaims, workClaimsOf } from '../db/work-claims.ts';
import { INTERRUPTED_MESSAGE, UploadQueue } from './upload-queue.ts';

let h: EngineHarness;
let dir: string;
let queue: UploadQueue;
let changes: UploadInfo[];

const png = (width: number, height: number, shade: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: shade, g: 120, b: 200 } } })
    .png()
    .toBuffer();

let waits: number[];

function makeQueue(progress?: ProgressAggregate): UploadQueue {
  return new UploadQueue({
    cache: h.cache,
    service: uploadServiceFromClient(h.client),
    time: h.time,
    emit: (info) => void changes.push(info),
    onRateLimited: (ms) => void waits.push(ms),
    stagingDir: join(dir, 'staging'),
    ...(progress ? { progress } : {}),
  });
}

beforeEach(async () => {
  h = await startEngineHarness();
  dir = mkdtempSync(join(tmpdir(), 'atelier-uploads-'));
  changes = [];
  waits = [];
  queue = makeQueue();
  queue.start();
});

afterEach(async () => {
  await queue.stop();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const uploads = (harness: EngineHarness): number =>
  harness.emulator.control.stats().byRoute['POST /images/upload'] ?? 0;

/** An upload row left 'uploading' (a process that was sending it, or one that crashed). */
function leftUploading(modelId: string) {
  const row = h.cache.uploads.insert({
    modelId,
    type: 'modelInput',
    sourcePath: join(dir, 'x.png'),
    fileName: 'x.png',
    bytes: 10,
    sha256: 'ab',
    now: h.time.now(),
  });
  h.cache.uploads.update(row.id, { state: 'uploading' }, h.time.now());
  return row;
}

describe('upload queue', () => {
  it('checks every file first, uploads the good ones with progress and refuses the rest with reasons', async () => {
    const { id: modelID } = await h.client.createModel({});
    const small = await png(64, 48, 10);
    const good = { name: 'portrait.png', bytes: await png(800, 600, 20) };
    const huge = Buffer.alloc(21 * 1024 * 1024);
    huge.set([0xff, 0xd8, 0xff]);
    const result = await queue.add({
      modelID,
      type: 'modelInput',
      files: [
        good,
        { name: 'tiny.png', bytesBase64: small.toString('base64') },
        { name: 'tiny-again.png', bytesBase64: small.toString('base64') },
        { name: 'notes.png', bytes: Buffer.from('these are not pixels') },
        { name: 'huge.jpg', bytes: huge },
      ],
    });
    expect(result.accepted.map((a) => [a.fileName, a.state, a.width, a.height])).toEqual([
      ['portrait.png', 'queued', 800, 600],
      ['tiny.png', 'queued', 64, 48],
    ]);
    expect(result.accepted[1]!.warning).toMatch(/Low resolution \(64×48\)/);
    expect(result.refused.map((r) => r.name)).toEqual(['tiny-again.png', 'notes.png', 'huge.jpg']);
    expect(result.refused[0]!.reason).toMatch(/same image is already/);
    expect(result.refused[1]!.reason).toMatch(/not a JPEG, PNG, WebP or HEIC image/);
    expect(result.refused[2]!.reason).toMatch(/21\.0 MB; the service accepts at most 20 MB/);
    expect(result.notices).toEqual(['2 training photos: add 10 more to reach the 12–20 needed for training.']);

    await queue.idle();
    const done = queue.list(modelID);
    expect(done.map((u) => u.state)).toEqual(['succeeded', 'succeeded']);
    expect(uploads(h)).toBe(2); // nothing refused was sent
    expect(changes.some((c) => c.state === 'uploading')).toBe(true);
    const asset = h.cache.assets.get('image', done[0]!.imageId!)!;
    expect(asset).toMatchObject({ origin: 'uploaded', type: 'modelInput', model_id: modelID, width: 800, height: 600 });
    expect(asset.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Every file was staged (bytes only, never a path); the staged bytes are gone once uploaded.
    expect(readdirSync(join(dir, 'staging'))).toEqual([]);

    // Adding the same photo later is refused against what is on the model now.
    const again = await queue.add({ modelID, type: 'modelInput', files: [good] });
    expect(again.refused[0]!.reason).toMatch(/already on this model/);
  });

  it('shows uploads on the taskbar bar it shares with downloads, and hides it when they end', async () => {
    const { id: modelID } = await h.client.createModel({});
    const shown: (number | null)[] = [];
    const bar = aggregateProgress({ set: (fraction) => void shown.push(fraction) });
    bar.update('image:img_downloading', 50, 100); // a download already on the bar
    await queue.stop();
    queue = makeQueue(bar);
    queue.start();
    await queue.add({
      modelID,
      type: 'modelInput',
      files: [{ name: 'a.png', bytesBase64: (await png(900, 900, 3)).toString('base64') }],
    });
    await queue.idle();
    expect(shown[0]).toBe(0.5);
    expect(shown.some((f) => f !== null && f > 0.5 && f < 1)).toBe(true);
    bar.finish('image:img_downloading');
    expect(shown.at(-1)).toBeNull();
  });

  it('keeps each model at 20 images of a type, counting what the service already has', async () => {
    const { id: modelID } = await h.client.createModel({});
    for (let i = 0; i < 19; i += 1) {
      await h.client.uploadImage({
        modelID,
        type: 'auxiliaryType',
        file: { name: `r${i}.png`, bytes: await png(300, 300, i) },
      });
    }
    const files = [];
    for (let i = 0; i < 3; i += 1)
      files.push({ name: `new${i}.png`, bytesBase64: (await png(300, 300, 100 + i)).toString('base64') });
    const result = await queue.add({ modelID, type: 'auxiliaryType', files });
    expect(result.accepted).toHaveLength(1);
    expect(result.refused.map((r) => r.reason)).toEqual([
      expect.stringMatching(/more than 20 reference images/),
      expect.stringMatching(/more than 20 reference images/),
    ]);
    expect(result.notices).toEqual([]);
  });

  it('reports a failed upload with the service’s reason; retry sends it again, remove forgets it', async () => {
    const { id: modelID } = await h.client.createModel({});
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/upload', serverError: { count: 2, status: 500 } }],
    });
    const result = await queue.add({
      modelID,
      type: 'modelInput',
      files: [
        { name: 'a.png', bytesBase64: (await png(600, 600, 1)).toString('base64') },
        { name: 'b.png', bytesBase64: (await png(600, 600, 2)).toString('base64') },
      ],
    });
    await queue.idle();
    const [a, b] = queue.list(modelID);
    expect(a).toMatchObject({ state: 'failed', attempts: 1 });
    expect(a!.error).toMatch(/HTTP 500/);
    expect(b!.state).toBe('failed');
    expect(queue.retry(a!.id).state).toBe('queued');
    await queue.idle();
    expect(queue.list(modelID)[0]).toMatchObject({ state: 'succeeded', attempts: 2 });
    await queue.remove(b!.id);
    expect(queue.list(modelID).map((u) => u.id)).toEqual([a!.id]);
    expect(changes.at(-1)).toMatchObject({ id: b!.id, state: 'removed' });
    expect(readdirSync(join(dir, 'staging'))).toEqual([]);
    expect(result.accepted).toHaveLength(2);
  });

  it('waits out a 429 and sends again on its own (the service took nothing)', async () => {
    const { id: modelID } = await h.client.createModel({});
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/upload', rateLimit: { count: 1, retryAfterSeconds: 20 } }],
    });
    await queue.add({
      modelID,
      type: 'modelInput',
      files: [{ name: 'a.png', bytesBase64: (await png(600, 600, 3)).toString('base64') }],
    });
    await queue.idle();
    expect(queue.list(modelID)[0]).toMatchObject({ state: 'queued' });
    expect(queue.list(modelID)[0]!.error).toMatch(/^Waiting: /);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(20_000);
    await h.advance(10_000);
    expect(uploads(h)).toBe(1);
    await h.advance(11_000);
    await queue.idle();
    expect(queue.list(modelID)[0]).toMatchObject({ state: 'succeeded' });
    expect(uploads(h)).toBe(2);
  });

  it('after a crash, an upload that was running is shown as failed, never re-sent on its own', async () => {
    const { id: modelID } = await h.client.createModel({});
    await queue.stop();
    leftUploading(modelID);
    queue = makeQueue();
    queue.start();
    await queue.idle();
    expect(queue.list(modelID)[0]).toMatchObject({ state: 'failed', error: INTERRUPTED_MESSAGE });
    expect(uploads(h)).toBe(0);
  });

  it('an upload another live process is sending is left alone when this one starts', async () => {
    const { id: modelID } = await h.client.createModel({});
    await queue.stop();
    const row = leftUploading(modelID);
    const other = openAccountDb(h.cache.file); // the app, say, while the CLI starts
    const sending = new WorkClaims(other.sqlite);
    expect(sending.claim('uploads', row.id)).toBe(true);
    queue = makeQueue();
    queue.start();
    await queue.idle();
    expect(queue.list(modelID)[0]).toMatchObject({ state: 'uploading' });
    sending.retire(); // it quits without finishing: the next start explains it
    other.close();
    await queue.stop();
    queue = makeQueue();
    queue.start();
    expect(queue.list(modelID)[0]).toMatchObject({ state: 'failed', error: INTERRUPTED_MESSAGE });
    expect(uploads(h)).toBe(0);
  });
});

describe('upload queue on a full disk', () => {
  it('a database that cannot be written stops no process: the queue waits, then sends the rest once there is room', async () => {
    const { id: modelID } = await h.client.createModel({});
    const warned: string[] = [];
    await queue.stop();
    queue = new UploadQueue({
      cache: h.cache,
      service: uploadServiceFromClient(h.client),
      time: h.time,
      emit: (info) => void changes.push(info),
      stagingDir: join(dir, 'staging'),
      concurrency: 1,
      logger: { warn: (message: string) => void warned.push(message) },
    });
    queue.start();
    h.emulator.control.setFaults({ rules: [{ method: 'POST', path: '/images/upload', latencyMs: 300 }] });
    await queue.add({
      modelID,
      type: 'modelInput',
      files: [
        { name: 'a.png', bytesBase64: (await png(600, 600, 4)).toString('base64') },
        { name: 'b.png', bytesBase64: (await png(600, 600, 5)).toString('base64') },
      ],
    });
    // The first is on its way; now the database cannot be written, as on a full disk (fault
    // injection: a real full disk is not something a test on every machine can make).
    const claims = workClaimsOf(h.cache.sqlite);
    const { claim, release } = claims;
    const full = (): never => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    claims.claim = full;
    claims.release = full;
    await queue.idle();
    expect(warned.some((m) => m.includes('disk full'))).toBe(true);
    expect(queue.list(modelID).find((u) => u.fileName === 'b.png')?.state).toBe('queued');
    // Room again: the waiting upload goes on its own, no restart.
    claims.claim = claim;
    claims.release = release;
    await h.advance(31_000);
    await queue.idle();
    expect(queue.list(modelID).find((u) => u.fileName === 'b.png')?.state).toBe('succeeded');
  });
});
