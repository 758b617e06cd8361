import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mediaPathFromProtocolUrl as mediaPathFromUrl, serveLocalMedia } from '../core/library/media/media-serving.ts';
import { createMediaHandler } from './media-handler.ts';

const root = mkdtempSync(join(tmpdir(), 'atelier-media-'));
const library = join(root, 'Library');
mkdirSync(join(library, 'images'), { recursive: true });
writeFileSync(join(library, 'images', 'img 1.png'), Buffer.from('0123456789'));
writeFileSync(join(root, 'secret.txt'), 'outside');
symlinkSync(join(root, 'secret.txt'), join(library, 'images', 'link.png'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const handle = createMediaHandler((request) => serveLocalMedia(library, request));
const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  handle(new Request(url, { headers, method }));

describe('mediaPathFromProtocolUrl', () => {
  it('reads library-relative paths from atelier-media://library URLs', () => {
    expect(mediaPathFromUrl('atelier-media://library/images/img%201.png')).toBe('images/img 1.png');
    expect(mediaPathFromUrl('atelier-media://library/.thumbs/a.webp?v=2')).toBe('.thumbs/a.webp');
  });

  it('refuses other hosts, schemes, empty and undecodable paths', () => {
    for (const url of [
      'atelier-media://other/a.png',
      'atelier://app/a.png',
      'atelier-media://library/',
      'atelier-media://library/%E0%A4%A',
      'nonsense',
    ]) {
      expect(mediaPathFromUrl(url), url).toBeNull();
    }
  });
});

describe('atelier-media handler', () => {
  it('serves a library file whole and by Range', async () => {
    const whole = await get('atelier-media://library/images/img%201.png');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(await whole.text()).toBe('0123456789');
    const part = await get('atelier-media://library/images/img%201.png', { range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await part.text()).toBe('2345');
  });

  it('answers 404 for anything outside the library, symlinks included', async () => {
    for (const url of [
      'atelier-media://library/../secret.txt',
      'atelier-media://library/%2e%2e/secret.txt',
      'atelier-media://library/images/link.png',
      'atelier-media://library/images/missing.png',
      'atelier-media://elsewhere/images/img%201.png',
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });

  it('refuses writes', async () => {
    expect((await get('atelier-media://library/images/img%201.png', {}, 'DELETE')).status).toBe(405);
  });
});
