// Marks inside exported files: a PNG, a JPEG and a WebP (lossy, lossless, with alpha, already
// extended) get an XMP packet with xmp:Rating (-1 for a reject), Atelier's exact stars and flag, the
// asset's id and its parents; another reader (sharp's own metadata) finds the packet, Atelier reads
// the same marks back, and the pixels are the same before and after (raw bytes compared).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readMarksXmp, type FileMarks } from '../../../contract/file-marks.ts';
import { readXmp } from '../../../contract/generation-settings.ts';
import type { AssetRow } from '../../db/repos/asset-row.ts';
import { marksOfAsset } from '../folder/asset-marks.ts';
import { embedForExport, readFileXmp, readPngText } from './embed-settings.ts';
import { embedXmpInWebp, readWebpXmp } from './webp-xmp.ts';

const row = (over: Partial<AssetRow> = {}): AssetRow =>
  ({
    seq: 1,
    kind: 'image',
    id: 'img_0042',
    model_id: 'imagea',
    prompt: 'a heron at dawn, mist',
    params: JSON.stringify({ modelID: 'imagea', prompt: 'a heron at dawn, mist', aspectRatio: '1:1' }),
    preset: null,
    job_id: 'job_7',
    created_at: Date.parse('2026-03-01T10:00:00Z'),
    width: 48,
    height: 32,
    source_asset_id: 'img_0001',
    frames: null,
    rating: 4,
    flag: 'pick',
    ...over,
  }) as AssetRow;

type Kind = 'png' | 'jpeg' | 'webp-lossy' | 'webp-lossless' | 'webp-alpha';

async function picture(kind: Kind): Promise<Buffer> {
  const alpha = kind === 'webp-alpha';
  const base = sharp({
    create: { width: 48, height: 32, channels: alpha ? 4 : 3, background: { r: 200, g: 90, b: 30, alpha: 0.5 } },
  }).composite([
    { input: Buffer.from('<svg width="48" height="32"><circle cx="16" cy="16" r="10" fill="#1e6"/></svg>') },
  ]);
  if (kind === 'png') return base.png().toBuffer();
  if (kind === 'jpeg') return base.jpeg({ quality: 85 }).toBuffer();
  return base.webp(kind === 'webp-lossy' ? { quality: 80 } : { lossless: true }).toBuffer();
}

const pixels = async (bytes: Buffer) =>
  (await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })).data;

describe('marks in exported files', () => {
  it.each<Kind>(['png', 'jpeg', 'webp-lossy', 'webp-lossless', 'webp-alpha'])(
    '%s: written, read back by Atelier and by another reader, pixels unchanged',
    async (kind) => {
      const original = await picture(kind);
      const asset = row();
      const written = embedForExport(original, asset, marksOfAsset(asset));
      if (!written) throw new Error('nothing written');
      const xmp = readFileXmp(written);
      expect(xmp).not.toBeNull();
      expect(readMarksXmp(xmp ?? '')).toEqual<FileMarks>({
        kind: 'image',
        id: 'img_0042',
        rating: 4,
        flag: 'pick',
        parents: [{ role: 'upscale of', kind: 'image', id: 'img_0001', name: null }],
      });
      // The settings travel in the same packet.
      expect(readXmp(xmp ?? '').request).toMatchObject({ modelID: 'imagea', aspectRatio: '1:1' });
      const seen = await sharp(written).metadata();
      expect(seen.xmp?.toString('utf8')).toContain('xmp:Rating="4"');
      expect(seen.xmp?.toString('utf8')).toContain('xmpMM:DerivedFrom');
      expect(await pixels(written)).toEqual(await pixels(original));
      // Written again (an export of an export), one packet replaces the other.
      const again = embedForExport(
        written,
        row({ rating: 2, flag: null }),
        marksOfAsset(row({ rating: 2, flag: null })),
      );
      expect(readMarksXmp(readFileXmp(again ?? Buffer.alloc(0)) ?? '')).toMatchObject({ rating: 2, flag: null });
      expect((again ?? Buffer.alloc(0)).toString('latin1').split('xmpMM:DocumentID=').length).toBe(2);
    },
  );

  it("a reject is xmp:Rating -1, its stars kept in Atelier's own property", async () => {
    const asset = row({ rating: 3, flag: 'reject' });
    const written = embedForExport(await picture('jpeg'), asset, marksOfAsset(asset));
    const xmp = readFileXmp(written ?? Buffer.alloc(0)) ?? '';
    expect(xmp).toContain('xmp:Rating="-1"');
    expect(readMarksXmp(xmp)).toMatchObject({ rating: 3, flag: 'reject' });
  });

  it("reads a rating another tool changed: xmp:Rating wins over Atelier's copy", async () => {
    const asset = row({ rating: 3, flag: 'reject' });
    const xmp = readFileXmp(embedForExport(await picture('png'), asset, marksOfAsset(asset)) ?? Buffer.alloc(0)) ?? '';
    // Un-rejected and rated 5 in a photo tool: it rewrites xmp:Rating only.
    expect(readMarksXmp(xmp.replace('xmp:Rating="-1"', 'xmp:Rating="5"'))).toMatchObject({ rating: 5, flag: null });
  });

  it('a PNG keeps its settings chunks and gets one iTXt XMP chunk', async () => {
    const asset = row();
    const written = embedForExport(await picture('png'), asset, marksOfAsset(asset)) ?? Buffer.alloc(0);
    const texts = readPngText(written);
    expect(Object.keys(texts).sort()).toEqual(['XML:com.adobe.xmp', 'atelier', 'parameters']);
    expect(written.includes(Buffer.from('iTXtXML:com.adobe.xmp'))).toBe(true);
  });

  it('a WebP gets the extended header announcing XMP; a cut or foreign file is refused', async () => {
    const simple = await picture('webp-lossy');
    expect(simple.toString('latin1', 12, 16)).toBe('VP8 ');
    const written = embedXmpInWebp(simple, '<x:xmpmeta/>');
    expect(written.toString('latin1', 12, 16)).toBe('VP8X');
    expect((written[20] ?? 0) & 0x04).toBe(0x04);
    expect(written.readUInt32LE(4)).toBe(written.length - 8);
    expect(readWebpXmp(written)).toBe('<x:xmpmeta/>');
    expect((await sharp(written).metadata()).width).toBe(48);
    expect(() => readWebpXmp(written.subarray(0, written.length - 20))).toThrow(/truncated/);
    expect(() => embedXmpInWebp(Buffer.from('RIFF\u0004\u0000\u0000\u0000WAVE'), 'x')).toThrow(/not a WebP/);
  });

  it('an image of another format is left for a plain copy', () => {
    expect(embedForExport(Buffer.from('GIF89a....'), row(), marksOfAsset(row()))).toBeNull();
  });
});
