// Settings inside the file: a PNG gets `parameters` (and `atelier`) text chunks, a JPEG an XMP APP1
// segment; other tools read them (sharp's own metadata), Atelier reads them back exactly, and the
// pixels are the same before and after (both decoded with sharp, raw bytes compared).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseParameters, readXmp, type GenerationSettings } from '../../../contract/generation-settings.ts';
import { embedInJpeg, embedInPng, readJpegXmp, readPngText } from './embed-settings.ts';

const settings: GenerationSettings = {
  prompt: 'a café at dusk, wet cobblestones\nwarm light',
  modelId: 'imagea',
  seed: 123456,
  width: 64,
  height: 48,
  preset: 'cinematic',
  jobId: 'job_1',
  request: {
    modelID: 'imagea',
    prompt: 'a café at dusk, wet cobblestones\nwarm light',
    aspectRatio: '4:3',
    numImages: 1,
    options: { imagea: { seed: 123456, outputFormat: 'png', negativePrompt: 'blur, noise' } },
  },
};

async function picture(format: 'png' | 'jpeg'): Promise<Buffer> {
  const base = sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } },
  }).composite([
    {
      input: Buffer.from(
        '<svg width="64" height="48"><circle cx="20" cy="20" r="14" fill="#1e6"/><rect x="36" y="10" width="20" height="30" fill="#24c"/></svg>',
      ),
    },
  ]);
  return format === 'png' ? base.png().toBuffer() : base.jpeg({ quality: 85 }).withMetadata().toBuffer();
}

const pixels = async (bytes: Buffer) => (await sharp(bytes).raw().toBuffer({ resolveWithObject: true })).data;

describe('settings inside PNG', () => {
  it('adds the parameters chunk SD tools read and the exact request; pixels unchanged', async () => {
    const original = await picture('png');
    const embedded = embedInPng(original, settings);
    expect(embedded.length).toBeGreaterThan(original.length);
    expect((await pixels(embedded)).equals(await pixels(original))).toBe(true);

    const texts = readPngText(embedded);
    const parsed = parseParameters(texts['parameters'] ?? '');
    expect(parsed.prompt).toBe(settings.prompt);
    expect(parsed.negativePrompt).toBe('blur, noise');
    expect(parsed.seed).toBe(123456);
    expect(parsed.model).toBe('imagea');
    expect(parsed.pairs['Aspect ratio']).toBe('4:3');
    expect(JSON.parse(texts['atelier'] ?? '')).toEqual(settings.request);

    // Another reader (libvips) sees the same chunk.
    const meta = await sharp(embedded).metadata();
    expect(meta.comments?.find((c) => c.keyword === 'parameters')?.text).toContain('Seed: 123456');

    // Writing again replaces ours rather than piling up.
    const twice = embedInPng(embedded, { ...settings, seed: 7, request: null });
    expect(parseParameters(readPngText(twice)['parameters'] ?? '').seed).toBe(7);
    expect(readPngText(twice)['atelier']).toBeUndefined();
    expect((await pixels(twice)).equals(await pixels(original))).toBe(true);
  });

  it('uses tEXt for Latin-1 text and iTXt (UTF-8) for the rest', async () => {
    const chunkTypes = (bytes: Buffer) => {
      const types: string[] = [];
      for (let at = 8; at < bytes.length;) {
        const length = bytes.readUInt32BE(at);
        types.push(bytes.toString('latin1', at + 4, at + 8));
        at += 12 + length;
      }
      return types;
    };
    const tiny = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const types = chunkTypes(embedInPng(tiny, { prompt: 'plain', modelId: 'm', request: null }));
    expect(types[0]).toBe('IHDR');
    expect(types.at(-1)).toBe('IEND');
    expect(types.indexOf('tEXt')).toBeGreaterThan(0);
    expect(types.indexOf('tEXt')).toBeLessThan(types.indexOf('IDAT'));
    const utf = embedInPng(tiny, { prompt: '富士山 at dawn', modelId: 'm', request: null });
    expect(chunkTypes(utf)).toContain('iTXt');
    expect(parseParameters(readPngText(utf)['parameters'] ?? '').prompt).toBe('富士山 at dawn');
  });
});

describe('settings inside JPEG', () => {
  it('adds an XMP APP1 segment photo tools read, Atelier reads back exactly; pixels unchanged', async () => {
    const original = await picture('jpeg');
    const embedded = embedInJpeg(original, settings, '2026-01-01T00:00:00.000Z');
    expect((await pixels(embedded)).equals(await pixels(original))).toBe(true);
    // The entropy-coded data is copied byte for byte: the tail after the headers is identical.
    const tail = original.subarray(original.indexOf(Buffer.from([0xff, 0xda])));
    expect(embedded.subarray(embedded.length - tail.length).equals(tail)).toBe(true);

    const xmp = readJpegXmp(embedded) ?? '';
    expect(xmp).toContain('<dc:description>');
    const meta = await sharp(embedded).metadata();
    expect(meta.xmp?.toString('utf8')).toContain('atelier:request');
    const read = readXmp(xmp);
    expect(read.request).toEqual(settings.request);
    expect(parseParameters(read.parameters ?? '').seed).toBe(123456);
    expect(parseParameters(read.parameters ?? '').prompt).toBe(settings.prompt);

    const again = embedInJpeg(embedded, { ...settings, seed: 9, request: null }, null);
    expect(again.toString('latin1').split('http://ns.adobe.com/xap/1.0/\0').length).toBe(2);
    expect(parseParameters(readXmp(readJpegXmp(again) ?? '').parameters ?? '').seed).toBe(9);
  });
});
