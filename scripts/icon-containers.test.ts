import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ICNS_PNG_TYPES, icnsFile, icoBitmap, icoFile, readIcns, readIco } from './icon-containers.ts';

const resources = resolve(import.meta.dirname, '..', 'resources');

/** A 2×2 image: red, green / blue, transparent. */
const tiny = {
  size: 2,
  rgba: Buffer.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0]),
};

describe('ICO container', () => {
  it('writes a 32-bit BMP bottom-up in BGRA, with the transparent pixel masked', () => {
    const bmp = icoBitmap(tiny);
    expect(bmp.readUInt32LE(0)).toBe(40);
    expect(bmp.readInt32LE(4)).toBe(2);
    expect(bmp.readInt32LE(8)).toBe(4); // height doubled: image + mask
    expect(bmp.readUInt16LE(14)).toBe(32);
    const pixels = bmp.subarray(40, 56);
    // First row stored is the bottom one: blue, transparent.
    expect([...pixels.subarray(0, 8)]).toEqual([255, 0, 0, 255, 0, 0, 0, 0]);
    expect([...pixels.subarray(8, 16)]).toEqual([0, 0, 255, 255, 0, 255, 0, 255]);
    // AND mask rows are 4 bytes; bottom row's second pixel is transparent.
    expect([...bmp.subarray(56)]).toEqual([0x40, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('indexes its images and reads them back (256 written as 0)', () => {
    const png = Buffer.from('\x89PNG fake');
    const file = icoFile([
      { kind: 'bmp', ...tiny },
      { size: 256, png },
    ]);
    expect(file[6 + 16]).toBe(0);
    const entries = readIco(file);
    expect(entries.map((e) => [e.size, e.bitCount])).toEqual([
      [2, 32],
      [256, 32],
    ]);
    expect(entries[1]?.image.equals(png)).toBe(true);
    expect(entries[0]?.image.equals(icoBitmap(tiny))).toBe(true);
  });

  it('refuses what an ICO cannot hold', () => {
    expect(() => icoFile([{ size: 512, png: Buffer.alloc(1) }])).toThrow('1 to 256 px');
    expect(() => icoBitmap({ size: 3, rgba: Buffer.alloc(4) })).toThrow('expected 36 bytes');
  });
});

describe('ICNS container', () => {
  it('writes typed chunks with lengths that add up, and reads them back', () => {
    const file = icnsFile([
      { type: 'ic07', png: Buffer.from('a') },
      { type: 'ic10', png: Buffer.from('bcd') },
    ]);
    expect(file.toString('latin1', 0, 4)).toBe('icns');
    expect(file.readUInt32BE(4)).toBe(file.length);
    expect(readIcns(file).map((c) => [c.type, c.data.toString()])).toEqual([
      ['ic07', 'a'],
      ['ic10', 'bcd'],
    ]);
    expect(() => icnsFile([{ type: 'toolong', png: Buffer.alloc(1) }])).toThrow('four characters');
  });
});

describe('the committed icons', () => {
  it('icon.ico: 16 to 128 px as BMP, 256 px as PNG', async () => {
    const entries = readIco(readFileSync(resolve(resources, 'icon.ico')));
    expect(entries.map((e) => e.size)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    for (const entry of entries.slice(0, -1)) {
      expect(entry.image.readInt32LE(4)).toBe(entry.size);
      expect(entry.image.length).toBe(40 + entry.size * entry.size * 4 + Math.ceil(entry.size / 32) * 4 * entry.size);
    }
    const big = await sharp((entries.at(-1) as { image: Buffer }).image).metadata();
    expect([big.format, big.width, big.height]).toEqual(['png', 256, 256]);
  });

  it('icon.icns: a PNG of the right size in every chunk', async () => {
    const chunks = readIcns(readFileSync(resolve(resources, 'icon.icns')));
    expect(chunks.map((c) => c.type)).toEqual(ICNS_PNG_TYPES.map((t) => t.type));
    for (const chunk of chunks) {
      const meta = await sharp(chunk.data).metadata();
      const pixels = ICNS_PNG_TYPES.find((t) => t.type === chunk.type)?.pixels;
      expect([chunk.type, meta.format, meta.width, meta.height]).toEqual([chunk.type, 'png', pixels, pixels]);
    }
  });

  it('icons/: one PNG per size for Linux, named NxN.png', async () => {
    const files = readdirSync(resolve(resources, 'icons')).sort((a, b) => parseInt(a) - parseInt(b));
    expect(files).toEqual([
      '16x16.png',
      '24x24.png',
      '32x32.png',
      '48x48.png',
      '64x64.png',
      '128x128.png',
      '256x256.png',
      '512x512.png',
    ]);
    for (const file of files) {
      const meta = await sharp(resolve(resources, 'icons', file)).metadata();
      expect(`${meta.width}x${meta.height}.png`).toBe(file);
    }
  });
});
