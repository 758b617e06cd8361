// Settings read back from dropped files: Atelier's PNG chunks and JPEG XMP give the exact request; a
// PNG from another SD tool gives prompt, model and seed; files without settings give nothing.
import { describe, expect, it } from 'vitest';
import { formatParameters, formatXmp, XMP_APP1_ID } from '@contract/generation-settings.ts';
import { readDroppedSettings, requestToLoad } from './dropped-settings.ts';

const enc = new TextEncoder();

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  new DataView(out.buffer).setUint32(0, data.length);
  out.set(enc.encode(type), 4);
  out.set(data, 8);
  return out; // the reader does not check CRCs
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const tEXt = (keyword: string, text: string) => chunk('tEXt', enc.encode(`${keyword}\0${text}`));
const iTXt = (keyword: string, text: string) =>
  chunk('iTXt', concat(enc.encode(`${keyword}\0\0\0\0\0`), enc.encode(text)));
const png = (...texts: Uint8Array[]) =>
  concat(
    SIGNATURE,
    chunk('IHDR', new Uint8Array(13)),
    ...texts,
    chunk('IDAT', new Uint8Array(4)),
    chunk('IEND', new Uint8Array()),
  );

const request = {
  modelID: 'my-portrait-model',
  prompt: 'a portrait in soft window light',
  numImages: 2,
  seed: 31337,
  steps: 30,
  styleStrength: 0.6,
};

describe('settings from a dropped file', () => {
  it('an Atelier PNG restores the exact request: prompt, model, seed and options', () => {
    const text = formatParameters({ prompt: request.prompt, modelId: request.modelID, request });
    const found = readDroppedSettings(png(tEXt('parameters', text), iTXt('atelier', JSON.stringify(request))));
    expect(found?.request).toEqual(request);
    expect(found?.parameters).toMatchObject({ prompt: request.prompt, seed: 31337, model: 'my-portrait-model' });
    expect(requestToLoad(found!, { currentModel: 'imagea', knownModels: [], trainedModels: [] })).toEqual(request);
  });

  it('a PNG of another SD tool gives prompt, model (when known) and seed (trained models take one)', () => {
    const a1111 =
      'a castle on a hill, golden hour\nNegative prompt: blurry\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: 99, Size: 512x512, Model: my-portrait-model';
    const found = readDroppedSettings(png(tEXt('parameters', a1111)));
    expect(found?.parameters).toMatchObject({
      prompt: 'a castle on a hill, golden hour',
      negativePrompt: 'blurry',
      seed: 99,
    });
    expect(
      requestToLoad(found!, {
        currentModel: 'imagea',
        knownModels: ['imagea', 'my-portrait-model'],
        trainedModels: ['my-portrait-model'],
      }),
    ).toEqual({ modelID: 'my-portrait-model', prompt: 'a castle on a hill, golden hour', seed: 99 });
    // An unknown model keeps the current one, and a public model takes no seed.
    expect(requestToLoad(found!, { currentModel: 'imagea', knownModels: ['imagea'], trainedModels: [] })).toEqual({
      modelID: 'imagea',
      prompt: 'a castle on a hill, golden hour',
    });
  });

  it('an Atelier JPEG (XMP) restores the exact request', () => {
    const xmp = enc.encode(formatXmp({ prompt: request.prompt, modelId: request.modelID, request }, null));
    const id = enc.encode(XMP_APP1_ID);
    const length = 2 + id.length + xmp.length;
    const app1 = concat(new Uint8Array([0xff, 0xe1, length >> 8, length & 0xff]), id, xmp);
    const jpeg = concat(
      new Uint8Array([0xff, 0xd8]),
      new Uint8Array([0xff, 0xe0, 0, 4, 0, 0]),
      app1,
      new Uint8Array([0xff, 0xda, 0, 2, 1, 2, 3]),
    );
    expect(readDroppedSettings(jpeg)?.request).toEqual(request);
  });

  it('a file without settings carries none', () => {
    expect(readDroppedSettings(png())).toBeNull();
    expect(readDroppedSettings(png(tEXt('Software', 'GIMP')))).toBeNull();
    expect(readDroppedSettings(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeNull();
    expect(readDroppedSettings(enc.encode('not an image'))).toBeNull();
  });
});
