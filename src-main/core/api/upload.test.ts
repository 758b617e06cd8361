// Upload preparation: real format by content, type, per-type count, 20 MB request cap, multipart parts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../contract/errors.ts';
import { UPLOAD_RULES } from '../../contract/rules/index.ts';
import { prepareUpload, type UploadImageRequest } from './upload.ts';

const dir = mkdtempSync(join(tmpdir(), 'atelier-upload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const image = (format: 'png' | 'jpeg' | 'webp') =>
  sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .toFormat(format)
    .toBuffer();

async function refusal(request: UploadImageRequest): Promise<AppError['info']> {
  const error = await prepareUpload(request).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error.info;
}

describe('prepareUpload', () => {
  it('detects PNG, JPEG and WebP by content whatever the name says, and builds file + data parts', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const bytes = await image(format);
      const prepared = await prepareUpload({
        modelID: 'm1',
        type: 'auxiliaryType',
        file: { name: 'photo.gif', bytes },
      });
      expect(prepared.format).toBe(format);
      const form = await new Response(prepared.body.bytes as Uint8Array<ArrayBuffer>, {
        headers: { 'content-type': prepared.body.contentType },
      }).formData();
      expect(JSON.parse(form.get('data') as string)).toEqual({ modelID: 'm1', type: 'auxiliaryType' });
      const file = form.get('file') as File;
      expect(file.name).toBe('photo.gif');
      expect(file.type).toBe(`image/${format}`);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(bytes));
    }
  });

  it('reads a path and sends its base name', async () => {
    const path = join(dir, 'face 01.png');
    writeFileSync(path, await image('png'));
    const prepared = await prepareUpload({ modelID: 'm1', type: 'modelInput', file: path });
    expect(prepared.fileName).toBe('face 01.png');
  });

  it('refuses a non-image even when it is named .png, naming the file', async () => {
    const info = await refusal({
      modelID: 'm1',
      type: 'modelInput',
      file: { name: 'notes.png', bytes: new TextEncoder().encode('just text') },
    });
    expect(info).toMatchObject({ code: 'validation', field: 'file' });
    expect(info.message).toContain('"notes.png"');
    expect(info.message).toMatch(/not a JPEG, PNG, WebP or HEIC image/);
  });

  it('refuses an unknown type and a full model', async () => {
    const bytes = await image('png');
    expect(await refusal({ modelID: 'm1', type: 'output' as never, file: { name: 'a.png', bytes } })).toMatchObject({
      code: 'validation',
      field: 'type',
    });
    const full = await refusal({
      modelID: 'm1',
      type: 'modelInput',
      file: { name: 'a.png', bytes },
      existingCountOfType: UPLOAD_RULES.maxPerType,
    });
    expect(full).toMatchObject({ code: 'validation', field: 'type' });
    expect(full.message).toMatch(/already has 20 modelInput images/);
    await expect(
      prepareUpload({ modelID: 'm1', type: 'modelInput', file: { name: 'a.png', bytes }, existingCountOfType: 19 }),
    ).resolves.toBeDefined();
  });

  it('refuses a request over 20 MB counting the multipart framing', async () => {
    const png = await image('png');
    // The file alone fits; with the parts around it the request does not.
    const bytes = new Uint8Array(UPLOAD_RULES.maxRequestBytes - 50);
    bytes.set(png);
    const info = await refusal({ modelID: 'm1', type: 'modelInput', file: { name: 'big.png', bytes } });
    expect(info).toMatchObject({ code: 'validation', field: 'file' });
    expect(info.message).toMatch(/"big.png" was not uploaded: the upload request would be 20.1 MB/);
  });

  it('refuses a too-large file on disk by its size, and names unreadable files', async () => {
    const path = join(dir, 'huge.jpg');
    writeFileSync(path, Buffer.alloc(UPLOAD_RULES.maxRequestBytes + 1));
    expect((await refusal({ modelID: 'm1', type: 'modelInput', file: path })).message).toMatch(
      /"huge.jpg" was not uploaded: it is 20.1 MB/,
    );
    expect(await refusal({ modelID: 'm1', type: 'modelInput', file: join(dir, 'missing.png') })).toMatchObject({
      code: 'invalid_argument',
      field: 'file',
    });
  });
});
