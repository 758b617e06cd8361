// Local media serving: ranges (206/416), HEAD, types, and nothing outside the library root.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeMediaPath, encodeMediaPath, parseByteRange, serveLocalMedia } from './media-serving.ts';

let base: string;
let root: string;
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'atelier-serve-'));
  root = join(base, 'Library');
  await mkdir(join(root, 'videos', 'v1.hls'), { recursive: true });
  await mkdir(join(root, '.thumbs'), { recursive: true });
  await writeFile(join(root, 'videos', 'v1.mp4'), bytes);
  await writeFile(join(root, 'videos', 'v1.hls', 'index.m3u8'), '#EXTM3U\n');
  await writeFile(join(root, 'videos', 'v1.hls', 'v00000.ts'), 'ts');
  await writeFile(join(root, '.thumbs', 'v1.webp'), 'webp');
  await writeFile(join(root, 'videos', 'v2.part'), 'partial');
  await mkdir(join(root, 'videos', 'v3.hls.part'), { recursive: true });
  await writeFile(join(root, 'videos', 'v3.hls.part', 'index.m3u8'), '#EXTM3U\n');
  await writeFile(join(base, 'secret.txt'), 'secret');
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function text(body: Readable | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  if (body) for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('serveLocalMedia', () => {
  it('serves a whole file with its type and length', async () => {
    const reply = await serveLocalMedia(root, { path: 'videos/v1.mp4' });
    expect(reply.status).toBe(200);
    expect(reply.headers['Content-Type']).toBe('video/mp4');
    expect(reply.headers['Content-Length']).toBe('1000');
    expect(reply.headers['Accept-Ranges']).toBe('bytes');
    expect(await text(reply.body)).toEqual(bytes);
  });

  it('answers a range with 206 and the exact slice', async () => {
    const reply = await serveLocalMedia(root, { path: 'videos/v1.mp4', rangeHeader: 'bytes=100-199' });
    expect(reply.status).toBe(206);
    expect(reply.headers['Content-Range']).toBe('bytes 100-199/1000');
    expect(reply.headers['Content-Length']).toBe('100');
    expect(await text(reply.body)).toEqual(bytes.subarray(100, 200));
  });

  it('handles open-ended and suffix ranges', async () => {
    const open = await serveLocalMedia(root, { path: 'videos/v1.mp4', rangeHeader: 'bytes=990-' });
    expect(open.headers['Content-Range']).toBe('bytes 990-999/1000');
    expect(await text(open.body)).toEqual(bytes.subarray(990));
    const suffix = await serveLocalMedia(root, { path: 'videos/v1.mp4', rangeHeader: 'bytes=-10' });
    expect(suffix.headers['Content-Range']).toBe('bytes 990-999/1000');
    const clamped = await serveLocalMedia(root, { path: 'videos/v1.mp4', rangeHeader: 'bytes=900-5000' });
    expect(clamped.headers['Content-Range']).toBe('bytes 900-999/1000');
  });

  it('answers 416 with the size when the range starts past the end', async () => {
    const reply = await serveLocalMedia(root, { path: 'videos/v1.mp4', rangeHeader: 'bytes=1000-' });
    expect(reply.status).toBe(416);
    expect(reply.headers['Content-Range']).toBe('bytes */1000');
    expect(reply.body).toBeNull();
  });

  it('answers HEAD with headers only', async () => {
    const reply = await serveLocalMedia(root, { path: 'videos/v1.mp4', method: 'HEAD', rangeHeader: 'bytes=0-9' });
    expect(reply.status).toBe(206);
    expect(reply.headers['Content-Length']).toBe('10');
    expect(reply.body).toBeNull();
  });

  it('gives HLS files and thumbnails their types', async () => {
    expect((await serveLocalMedia(root, { path: 'videos/v1.hls/index.m3u8' })).headers['Content-Type']).toBe(
      'application/vnd.apple.mpegurl',
    );
    expect((await serveLocalMedia(root, { path: 'videos/v1.hls/v00000.ts' })).headers['Content-Type']).toBe(
      'video/mp2t',
    );
    expect((await serveLocalMedia(root, { path: '.thumbs/v1.webp' })).headers['Content-Type']).toBe('image/webp');
  });

  it.each([
    '../secret.txt',
    '/etc/passwd',
    'videos/../../secret.txt',
    'videos/v2.part',
    'videos/v3.hls.part/index.m3u8',
    'videos',
    'missing.mp4',
  ])('answers 404 for %j', async (path) => {
    const reply = await serveLocalMedia(root, { path });
    expect(reply.status).toBe(404);
    expect(String(await text(reply.body))).not.toContain('secret');
  });

  it('refuses a symlink out of the root', async () => {
    await symlink(join(base, 'secret.txt'), join(root, 'videos', 'link.mp4'));
    expect((await serveLocalMedia(root, { path: 'videos/link.mp4' })).status).toBe(404);
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await serveLocalMedia(root, { path: 'videos/v1.mp4', method: 'DELETE' })).status).toBe(405);
  });
});

describe('parseByteRange', () => {
  it('ignores what it cannot honour (several ranges, other units, reversed)', () => {
    expect(parseByteRange('bytes=0-1,5-6', 10)).toBeUndefined();
    expect(parseByteRange('items=0-1', 10)).toBeUndefined();
    expect(parseByteRange('bytes=5-1', 10)).toBeUndefined();
  });
  it('refuses an empty suffix and ranges on empty files', () => {
    expect(parseByteRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});

describe('encodeMediaPath', () => {
  const segmentByTurn = (path: string) => path.split('/').map(encodeURIComponent).join('/');

  it('writes every path as its segments encoded one by one, plain paths included', () => {
    const pathChars = fc.constantFrom(..."aZ09._-~/ %#?&é+!'()*:".split(''), '😀');
    fc.assert(
      fc.property(fc.array(pathChars, { maxLength: 40 }), (chars) => {
        const path = chars.join('');
        expect(encodeMediaPath(path)).toBe(segmentByTurn(path));
        expect(decodeMediaPath(encodeMediaPath(path))).toBe(path);
      }),
      { numRuns: 2000 },
    );
    expect(encodeMediaPath('images/img_1.png')).toBe('images/img_1.png');
    expect(encodeMediaPath('Demo/videos/v 1.hls/#1.ts')).toBe('Demo/videos/v%201.hls/%231.ts');
  });
});

describe('atelier-media URLs', () => {
  it('round-trips library paths, spaces and unicode included, and refuses other URLs', async () => {
    const { electronMediaUrl, mediaPathFromProtocolUrl } = await import('./media-serving.ts');
    for (const path of ['images/a.jpg', 'Demo/videos/v 1.hls/index.m3u8', '.thumbs/é.webp']) {
      expect(mediaPathFromProtocolUrl(electronMediaUrl(path))).toBe(path);
    }
    expect(mediaPathFromProtocolUrl('atelier-media://other/images/a.jpg')).toBeNull();
    expect(mediaPathFromProtocolUrl('https://library/images/a.jpg')).toBeNull();
  });

  it('makes a web Response for protocol.handle with the same status, headers and bytes', async () => {
    const { toWebResponse } = await import('./media-serving.ts');
    const response = toWebResponse(await serveLocalMedia(root, { path: 'videos/v1.mp4', rangeHeader: 'bytes=0-3' }));
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 0-3/1000');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes.subarray(0, 4));
  });
});
