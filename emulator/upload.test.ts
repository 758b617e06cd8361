// POST /images/upload: formats by magic bytes, 20 MB cap, 20 per type, ownership and part checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './index.ts';
import { Api, createModel, heicHeader, smallImage, smallPng, startTestEmulator, uploadMany } from './test-support.ts';

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
});
afterAll(() => emulator.close());

describe('accepted uploads', () => {
  it('returns an Image record with id, url, modelID and type, and serves the exact bytes', async () => {
    const modelID = await createModel(api);
    const png = await smallPng();
    const res = await api.upload(modelID, 'modelInput', png, 'me.png');
    expect(res.http).toBe(200);
    expect(res.body.result).toMatchObject({
      modelID,
      type: 'modelInput',
      data: { format: 'png', width: 64, height: 48 },
    });
    expect(res.body.result.id).toMatch(/^img_/);
    const media = await fetch(res.body.result.url as string);
    expect(media.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await media.arrayBuffer()).equals(png)).toBe(true);
  });

  it.each([
    ['jpeg', 'a.jpg', () => smallImage('jpeg'), 'image/jpeg'],
    ['webp', 'a.webp', () => smallImage('webp'), 'image/webp'],
    ['heic', 'a.heic', async () => heicHeader(), 'image/heic'],
  ])('accepts %s', async (format, name, bytes, contentType) => {
    const modelID = await createModel(api);
    const res = await api.upload(modelID, 'auxiliaryType', await bytes(), name);
    expect(res.http).toBe(200);
    expect(res.body.result.data).toMatchObject({ format });
    expect((await fetch(res.body.result.url as string)).headers.get('content-type')).toBe(contentType);
  });

  it('judges the format by content, not by the file name', async () => {
    const modelID = await createModel(api);
    const res = await api.upload(modelID, 'modelInput', await smallImage('jpeg'), 'really-a-jpeg.png');
    expect(res.body.result.data).toMatchObject({ format: 'jpeg' });
  });
});

describe('refused uploads', () => {
  it('refuses a file that is not an accepted image (GIF) with 400 naming file', async () => {
    const modelID = await createModel(api);
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const res = await api.upload(modelID, 'modelInput', gif, 'x.png');
    expect(res.http).toBe(400);
    expect(res.body.message).toMatch(/^file: /);
  });

  it('refuses a request over 20 MB with 413', async () => {
    const modelID = await createModel(api);
    const big = Buffer.alloc(20 * 1024 * 1024 + 10);
    (await smallPng()).copy(big);
    const res = await api.upload(modelID, 'modelInput', big);
    expect(res.http).toBe(413);
    expect(res.body).toMatchObject({ err: 'payload_too_large', status: 'NOK' });
  });

  it('refuses a chunked request (no Content-Length) that grows past 20 MB', async () => {
    const modelID = await createModel(api);
    const boundary = 'x-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${JSON.stringify({ modelID, type: 'modelInput' })}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const chunk = Buffer.alloc(1024 * 1024);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        for (let i = 0; i < 21; i += 1) controller.enqueue(chunk);
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const res = await fetch(`${emulator.url}/images/upload`, {
      method: 'POST',
      headers: { ...api.headers(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('accepts 20 images of a type and refuses the 21st (the other type keeps its own count)', async () => {
    const modelID = await createModel(api);
    await uploadMany(api, modelID, 'modelInput', 20);
    const refused = await api.upload(modelID, 'modelInput', await smallPng());
    expect(refused.http).toBe(400);
    expect(refused.body.message).toMatch(/^data\.type: .*20/);
    expect((await api.upload(modelID, 'auxiliaryType', await smallPng())).http).toBe(200);
  });

  it('answers 404 for a model that does not exist', async () => {
    expect((await api.upload('mdl_missing', 'modelInput', await smallPng())).http).toBe(404);
  });

  it('refuses an unknown type, missing parts and unreadable data', async () => {
    const modelID = await createModel(api);
    const wrongType = await api.upload(modelID, 'output', await smallPng());
    expect(wrongType.http).toBe(400);
    expect(wrongType.body.message).toMatch(/^data\.type: /);

    const noFile = new FormData();
    noFile.append('data', JSON.stringify({ modelID, type: 'modelInput' }));
    const res1 = await fetch(`${emulator.url}/images/upload`, { method: 'POST', headers: api.headers(), body: noFile });
    expect(res1.status).toBe(400);
    expect(((await res1.json()) as { message: string }).message).toMatch(/^file: /);

    const badData = new FormData();
    badData.append('data', '{modelID');
    badData.append('file', new Blob([new Uint8Array(await smallPng())]), 'a.png');
    const res2 = await fetch(`${emulator.url}/images/upload`, {
      method: 'POST',
      headers: api.headers(),
      body: badData,
    });
    expect(res2.status).toBe(400);
    expect(((await res2.json()) as { message: string }).message).toMatch(/^data: /);

    const json = await api.post('/images/upload', { modelID, type: 'modelInput' });
    expect(json.http).toBe(400);
  });
});
