// Thumbnails: small webp files made once; video frames through ffmpeg when present, else a poster.
import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureThumbnail, findFfmpeg, resetFfmpegLookup, THUMB_EDGE } from './thumbnails.ts';

const FIXTURE_MP4 = join(import.meta.dirname, '..', '..', '..', 'emulator', 'fixtures', 'video-landscape.mp4');
let root: string;
const savedPath = process.env.PATH;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-thumbs-'));
  await mkdir(join(root, 'images'));
});
afterEach(async () => {
  process.env.PATH = savedPath;
  resetFfmpegLookup();
  await rm(root, { recursive: true, force: true });
});

describe('ensureThumbnail', () => {
  it('makes a small webp of an image once, keeping the aspect ratio', async () => {
    const source = join(root, 'images', 'big.png');
    await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#3366cc' } })
      .png()
      .toFile(source);
    const first = await ensureThumbnail({ root, safeName: 'big', kind: 'image', source });
    expect(first).toMatchObject({ path: '.thumbs/big.webp', created: true, kind: 'image' });
    const meta = await sharp(join(root, first.path)).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([THUMB_EDGE, THUMB_EDGE / 2]);
    expect((await stat(join(root, first.path))).size).toBeLessThan(20_000);
    const again = await ensureThumbnail({ root, safeName: 'big', kind: 'image', source });
    expect(again.created).toBe(false);
  });

  it('gives an image it cannot decode a neutral thumbnail instead of failing every time', async () => {
    const source = join(root, 'images', 'odd.heic');
    await writeFile(source, Buffer.alloc(2000, 3));
    const thumb = await ensureThumbnail({ root, safeName: 'odd', kind: 'image', source });
    expect(thumb.kind).toBe('generated');
    expect((await sharp(join(root, thumb.path)).metadata()).format).toBe('webp');
  });

  it('takes a video frame with ffmpeg when it is on the PATH', async () => {
    expect(await findFfmpeg(), 'this machine has ffmpeg (apt); the fallback is tested below').not.toBeNull();
    const source = join(root, 'v.mp4');
    await copyFile(FIXTURE_MP4, source);
    const thumb = await ensureThumbnail({ root, safeName: 'v', kind: 'video', source });
    expect(thumb.kind).toBe('frame');
    const meta = await sharp(join(root, thumb.path)).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(THUMB_EDGE);
  });

  it('falls back to a generated poster without ffmpeg', async () => {
    process.env.PATH = '/nonexistent';
    resetFfmpegLookup();
    const source = join(root, 'v.mp4');
    await copyFile(FIXTURE_MP4, source);
    const thumb = await ensureThumbnail({ root, safeName: 'v', kind: 'video', source });
    expect(thumb.kind).toBe('generated');
    expect((await sharp(join(root, thumb.path)).metadata()).width).toBe(THUMB_EDGE);
  });

  it('shares one poster among videos not downloaded yet', async () => {
    const a = await ensureThumbnail({ root, safeName: 'a', kind: 'video', source: null });
    const b = await ensureThumbnail({ root, safeName: 'b', kind: 'video', source: null });
    expect(a.path).toBe(b.path);
    expect(b.created).toBe(false);
  });
});
