// Thumbnails: small webp files made once; video posters are real frames taken by the ffmpeg that
// comes from npm (no system ffmpeg: these tests run with a PATH that has none), a generated
// poster only when no frame can be had.
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unpackedPath } from './ffmpeg-binary.ts';
import { copyHlsOffline, HLS_ENTRY } from '../downloads/hls-copy.ts';
import type { MediaFetch } from './media-http.ts';
import { ensureThumbnail, findFfmpeg, resetFfmpegLookup, THUMB_EDGE } from './thumbnails.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'emulator', 'fixtures');
const PORTRAIT_MP4 = join(FIXTURES, 'video-portrait.mp4');
const LANDSCAPE_MP4 = join(FIXTURES, 'video-landscape.mp4');
let root: string;
const saved = { PATH: process.env.PATH, ATELIER_FFMPEG_PATH: process.env.ATELIER_FFMPEG_PATH };

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-thumbs-'));
  await mkdir(join(root, 'images'));
  // A PATH with no ffmpeg on it: the frame must come from the npm package's binary.
  process.env.PATH = join(root, 'empty-bin');
  delete process.env.ATELIER_FFMPEG_PATH;
  resetFfmpegLookup();
});
afterEach(async () => {
  process.env.PATH = saved.PATH;
  if (saved.ATELIER_FFMPEG_PATH === undefined) delete process.env.ATELIER_FFMPEG_PATH;
  else process.env.ATELIER_FFMPEG_PATH = saved.ATELIER_FFMPEG_PATH;
  resetFfmpegLookup();
  await rm(root, { recursive: true, force: true });
});

/**
 * Share of the picture in each saturated colour of the fixtures' test pattern (ffmpeg's
 * testsrc2: red, green, yellow, blue, magenta and cyan bars). The generated poster is one dark
 * grey with a white glyph: it has none of them.
 */
async function colourShares(file: string): Promise<Record<string, number>> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const hi = 170;
  const lo = 90;
  const classes: Record<string, (r: number, g: number, b: number) => boolean> = {
    red: (r, g, b) => r > hi && g < lo && b < lo,
    green: (r, g, b) => r < lo && g > hi && b < lo,
    yellow: (r, g, b) => r > hi && g > hi && b < lo,
    blue: (r, g, b) => r < lo && g < lo && b > hi,
    magenta: (r, g, b) => r > hi && g < lo && b > hi,
    cyan: (r, g, b) => r < lo && g > hi && b > hi,
  };
  const counts = Object.fromEntries(Object.keys(classes).map((name) => [name, 0]));
  const pixels = info.width * info.height;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    for (const [name, test] of Object.entries(classes)) if (test(r, g, b)) counts[name]! += 1;
  }
  return Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, count / pixels]));
}

/** A real frame of the test pattern: every bar colour covers a fair part of the picture. */
async function expectTestPatternFrame(file: string): Promise<void> {
  const shares = await colourShares(file);
  for (const [colour, share] of Object.entries(shares)) {
    expect(share, `${colour} covers ${(share * 100).toFixed(1)} % of the poster`).toBeGreaterThan(0.03);
  }
}

/** Serves the emulator's HLS fixture (master, two variants, .ts segments) from disk. */
const fixtureSite: MediaFetch = async (url) => {
  const path = new URL(url).pathname.replace(/^\/s\//, '');
  const file = join(FIXTURES, 'hls', path.endsWith('.ts') ? `${path}.bin` : path);
  try {
    const bytes = await readFile(file);
    return { status: 200, headers: { 'content-length': String(bytes.length) }, body: Readable.from([bytes]) };
  } catch {
    return { status: 404, headers: {}, body: Readable.from([]) };
  }
};

describe('ffmpeg from npm', () => {
  it('is found with no ffmpeg on the PATH: the binary of @ffmpeg-installer for this platform', async () => {
    const ffmpeg = await findFfmpeg();
    expect(ffmpeg).not.toBeNull();
    expect(ffmpeg).toContain(`${sep}@ffmpeg-installer${sep}${process.platform}-${process.arch}${sep}`);
  });

  it('is run from app.asar.unpacked in a packaged app (the OS cannot execute inside app.asar)', () => {
    expect(unpackedPath('/opt/Atelier/resources/app.asar/node_modules/@ffmpeg-installer/linux-x64/ffmpeg')).toBe(
      '/opt/Atelier/resources/app.asar.unpacked/node_modules/@ffmpeg-installer/linux-x64/ffmpeg',
    );
    expect(
      unpackedPath(
        'C:\\Program Files\\Atelier\\resources\\app.asar\\node_modules\\@ffmpeg-installer\\win32-x64\\ffmpeg.exe',
      ),
    ).toBe(
      'C:\\Program Files\\Atelier\\resources\\app.asar.unpacked\\node_modules\\@ffmpeg-installer\\win32-x64\\ffmpeg.exe',
    );
    const dev = '/home/me/atelier/node_modules/@ffmpeg-installer/linux-x64/ffmpeg';
    expect(unpackedPath(dev)).toBe(dev);
  });
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

  it('gives a downloaded MP4 a real frame: its own shape and the colours of its picture', async () => {
    const source = join(root, 'v.mp4');
    await copyFile(PORTRAIT_MP4, source);
    const thumb = await ensureThumbnail({ root, safeName: 'v', kind: 'video', source });
    expect(thumb.kind).toBe('frame');
    const meta = await sharp(join(root, thumb.path)).metadata();
    // The portrait video keeps its 9:16 shape; the generated poster is 16:9.
    expect([meta.width, meta.height]).toEqual([180, THUMB_EDGE]);
    await expectTestPatternFrame(join(root, thumb.path));
  });

  it('gives an HLS offline copy a real frame, read from its local files only', async () => {
    const target = join(root, 'videos', 'h.hls');
    await copyHlsOffline({
      url: 'https://media.invalid/s/master.m3u8',
      targetDir: target,
      stagingDir: `${target}.partial`,
      signal: new AbortController().signal,
      fetch: fixtureSite,
    });
    const thumb = await ensureThumbnail({ root, safeName: 'h', kind: 'video', source: join(target, HLS_ENTRY) });
    expect(thumb.kind).toBe('frame');
    const meta = await sharp(join(root, thumb.path)).metadata();
    expect([meta.width, meta.height]).toEqual([THUMB_EDGE, 180]);
    await expectTestPatternFrame(join(root, thumb.path));
  });

  it('the generated poster is not mistaken for a frame by that check', async () => {
    process.env.ATELIER_FFMPEG_PATH = join(root, 'no-ffmpeg-here');
    resetFfmpegLookup();
    const source = join(root, 'v.mp4');
    await copyFile(LANDSCAPE_MP4, source);
    const thumb = await ensureThumbnail({ root, safeName: 'v', kind: 'video', source });
    expect(thumb.kind).toBe('generated');
    const shares = await colourShares(join(root, thumb.path));
    expect(Math.max(...Object.values(shares))).toBeLessThan(0.01);
    expect((await sharp(join(root, thumb.path)).metadata()).width).toBe(THUMB_EDGE);
  });

  it('falls back to a generated poster for a video no frame can be read from', async () => {
    const source = join(root, 'broken.mp4');
    await writeFile(source, Buffer.alloc(4096, 7));
    const thumb = await ensureThumbnail({ root, safeName: 'broken', kind: 'video', source });
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
