// uploads:* through a real core against the emulator: files arrive as bytes only (a renderer can
// never name a path for the core to read), a 19 MiB photo travels in 1 MiB chunks and reaches the
// service, and chunks out of order, too long, or never finished are refused with a reason.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import type { InvokeArgs, InvokeChannel, InvokeResult } from '../../contract/ipc.ts';
import { UPLOAD_CHUNK_BYTES, type UploadInfo } from '../../contract/ipc/uploads.ts';
import { createCore, type Core } from '../core.ts';
import { createMemoryStore } from '../settings/store.ts';
import { sendFileInChunks } from '../uploads/send-file.ts';

let emulator: RunningEmulator;
let dataDir: string;
let core: Core;
let modelID: string;

async function call<C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<InvokeResult<C>> {
  const result = await core.dispatch(channel, args);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as InvokeResult<C>;
}

/** A PNG of random pixels: noise does not compress, so the file is about width × height × 3 bytes. */
async function noisePng(side: number): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

beforeAll(async () => {
  emulator = await startEmulator({ seed: 5 });
  dataDir = mkdtempSync(join(tmpdir(), 'atelier-uploads-'));
  core = await createCore({
    dataDir,
    host: { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null },
    store: createMemoryStore({ settings: { baseUrl: emulator.url } }),
    apiKeyOverride: 'demo-key',
  });
  modelID = (await call('models:create', { label: 'Uploads', modelType: 'person' })).id;
});
afterAll(async () => {
  await core.close();
  await emulator.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('uploads through the dispatcher', () => {
  it('refuses a file given as a path: the core reads no file a renderer names', async () => {
    const result = await core.dispatch('uploads:add', {
      modelID,
      type: 'modelInput',
      files: [{ path: '/etc/passwd' }],
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('carries a 19 MiB photo in 1 MiB chunks to the service', async () => {
    const photo = await noisePng(2_600);
    expect(photo.byteLength).toBeGreaterThan(19 * 1024 * 1024);
    expect(photo.byteLength).toBeLessThan(20 * 1024 * 1024 - 2048);
    let largest = 0;
    const fileId = await sendFileInChunks(
      (channel, args) => {
        largest = Math.max(largest, JSON.stringify(args).length);
        return call(channel, args);
      },
      'big.png',
      photo,
    );
    expect(largest).toBeLessThan(1.5 * UPLOAD_CHUNK_BYTES); // no message carries the whole file
    const added = await call('uploads:add', { modelID, type: 'modelInput', files: [{ fileId }] });
    expect(added.refused).toEqual([]);
    expect(added.accepted.map((a) => [a.fileName, a.bytes])).toEqual([['big.png', photo.byteLength]]);
    const done = await new Promise<UploadInfo>((resolve) => {
      const stop = core.events.subscribe((event, payload) => {
        const info = payload as UploadInfo;
        if (event === 'uploads:changed' && info.state !== 'queued' && info.state !== 'uploading') {
          stop();
          resolve(info);
        }
      });
    });
    expect(done).toMatchObject({ state: 'succeeded', fileName: 'big.png' });
    // Taken once: the same id cannot be added twice.
    const again = await core.dispatch('uploads:add', { modelID, type: 'modelInput', files: [{ fileId }] });
    expect(again).toMatchObject({ ok: false, error: { code: 'invalid_argument', field: 'fileId' } });
  }, 60_000);

  it('refuses a file over 20 MB up front, chunks out of order or past the end, and an unfinished file', async () => {
    expect(await core.dispatch('uploads:begin-file', { name: 'huge.jpg', size: 21 * 1024 * 1024 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'size' },
    });
    const { fileId } = await call('uploads:begin-file', { name: 'small.png', size: 4 });
    const chunk = Buffer.from([1, 2, 3]).toString('base64');
    expect(await core.dispatch('uploads:send-chunk', { fileId, offset: 2, bytesBase64: chunk })).toMatchObject({
      ok: false,
      error: { field: 'offset' },
    });
    expect(await call('uploads:send-chunk', { fileId, offset: 0, bytesBase64: chunk })).toEqual({
      received: 3,
      complete: false,
    });
    expect(await core.dispatch('uploads:add', { modelID, type: 'modelInput', files: [{ fileId }] })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/has not fully arrived/) },
    });
    expect(await core.dispatch('uploads:send-chunk', { fileId, offset: 3, bytesBase64: chunk })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/longer than announced/) },
    });
    const oversized = 'A'.repeat(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4 + 4);
    expect(await core.dispatch('uploads:send-chunk', { fileId, offset: 0, bytesBase64: oversized })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'bytesBase64' },
    });
  });
});
