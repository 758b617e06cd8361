// Upload rules: magic-byte format detection on real header bytes, file-name formats and the upload data part.
import { describe, expect, it } from 'vitest';
import { UPLOAD_RULES, detectImageFormat, uploadFormatFromName, validateUploadData } from './upload.ts';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

/** An ISO-BMFF ftyp box: size, 'ftyp', major brand, minor version 0, compatible brands. */
const ftyp = (major: string, compatible: string[]): Uint8Array => {
  const size = 16 + 4 * compatible.length;
  return bytes([0, 0, 0, size], 'ftyp', major, [0, 0, 0, 0], compatible.join(''), [0, 0, 0, 8], 'meta');
};

describe('detectImageFormat', () => {
  it.each([
    ['jpeg (JFIF)', bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0]), 'jpeg'],
    ['jpeg (Exif)', bytes([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10], 'Exif', [0, 0]), 'jpeg'],
    ['png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'), 'png'],
    ['webp (VP8)', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'webp'],
    ['heic as written by heif-enc', ftyp('heic', ['mif1', 'heic', 'miaf']), 'heic'],
    ['heic with heix brand', ftyp('heix', ['mif1', 'heix']), 'heic'],
    ['heic sequence (hevc)', ftyp('hevc', ['msf1', 'hevc']), 'heic'],
    ['generic mif1 with heic compatible brand', ftyp('mif1', ['heic', 'mif1']), 'heic'],
    ['generic msf1', ftyp('msf1', ['msf1', 'iso8']), 'heic'],
  ] as const)('%s', (_name, header, expected) => {
    expect(detectImageFormat(header)).toBe(expected);
  });

  it.each([
    ['empty', bytes()],
    ['gif', bytes('GIF89a', [1, 0, 1, 0])],
    ['avif', ftyp('avif', ['avif', 'mif1', 'miaf'])],
    ['mif1 that is really avif', ftyp('mif1', ['avif', 'mif1'])],
    ['mp4 video', ftyp('isom', ['isom', 'iso2', 'mp41'])],
    ['truncated png', bytes([0x89], 'PNG')],
    ['riff wave', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')],
    ['text', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['jpeg marker only two bytes', bytes([0xff, 0xd8])],
  ])('refuses %s', (_name, header) => {
    expect(detectImageFormat(header)).toBeNull();
  });

  it('copes with non-byte input', () => {
    expect(detectImageFormat(null as unknown as Uint8Array)).toBeNull();
    expect(detectImageFormat('\xff\xd8\xff' as unknown as Uint8Array)).toBeNull();
  });
});

describe('UPLOAD_RULES and file names', () => {
  it('states the spec §8 limits', () => {
    expect(UPLOAD_RULES).toMatchObject({
      types: ['modelInput', 'auxiliaryType'],
      formats: ['jpg', 'jpeg', 'webp', 'png', 'heic'],
      maxRequestBytes: 20 * 1024 * 1024,
      maxPerType: 20,
      trainingMin: 12,
      trainingMax: 20,
    });
  });

  it.each([
    ['me.JPG', 'jpeg'],
    ['me.jpeg', 'jpeg'],
    ['a.b.png', 'png'],
    ['x.webp', 'webp'],
    ['IMG_1.HEIC', 'heic'],
    ['anim.gif', null],
    ['noext', null],
    ['png', null],
  ])('%s → %s', (name, format) => {
    expect(uploadFormatFromName(name)).toBe(format);
  });
});

describe('validateUploadData', () => {
  it('accepts both upload types', () => {
    expect(validateUploadData({ modelID: 'm1', type: 'modelInput' })).toEqual([]);
    expect(validateUploadData({ modelID: 'm1', type: 'auxiliaryType' })).toEqual([]);
  });

  it.each([
    [{ modelID: 'm1', type: 'output' }, 'type'],
    [{ modelID: '', type: 'modelInput' }, 'modelID'],
    [{ type: 'modelInput' }, 'modelID'],
    [{ modelID: 'm1', type: 'modelInput', folder: 'x' }, 'folder'],
    ['{"modelID":"m1"}', ''],
    [null, ''],
  ])('refuses %j on %s', (data, field) => {
    expect(validateUploadData(data).map((p) => p.field)).toContain(field);
  });
});
