// Browser mode's /media route: library files behind the token guard, with ranges and HEAD, and
// nothing outside the library folder.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core/core.ts';
import { createEventBus } from '../core/events.ts';
import { serveLocalMedia } from '../core/library/media/media-serving.ts';
import { mediaRoute } from './media-route.ts';
import { startBrowserMode, type BrowserModeServer } from './server.ts';

let base: string;
let server: BrowserModeServer;
let cookie: string;
const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256));

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'atelier-media-route-'));
  const root = join(base, 'Library');
  await mkdir(join(root, 'videos'), { recursive: true });
  await writeFile(join(root, 'videos', 'v 1.mp4'), bytes);
  await writeFile(join(base, 'secret.txt'), 'secret');
  const serve = (request: Parameters<typeof serveLocalMedia>[1]) => serveLocalMedia(root, request);
  const core = {
    events: createEventBus(),
    dispatch: async () => ({ ok: true, value: null }),
    serveMedia: serve,
  } as unknown as Core;
  server = await startBrowserMode({ core, rendererDir: join(base, 'no-renderer'), routes: mediaRoute(serve) });
  const login = await fetch(server.url, { redirect: 'manual' });
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
});
afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

const origin = () => `http://127.0.0.1:${server.port}`;
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${origin()}${path}`, { method, headers: { cookie, ...headers } });

describe('browser mode /media route', () => {
  it('refuses requests without the session cookie', async () => {
    expect((await fetch(`${origin()}/media/videos/v%201.mp4`)).status).toBe(403);
  });

  it('serves a library file (names percent-encoded) with ranges and HEAD', async () => {
    const whole = await get('/media/videos/v%201.mp4');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
    const part = await get('/media/videos/v%201.mp4', { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 1000-1999/5000');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));
    const head = await get('/media/videos/v%201.mp4', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('5000');
    expect((await get('/media/videos/v%201.mp4', { range: 'bytes=9000-' })).status).toBe(416);
  });

  it('answers 404 for anything outside the library', async () => {
    for (const path of [
      '/media/..%2Fsecret.txt',
      '/media/%2E%2E/secret.txt',
      '/media/%2Fetc%2Fpasswd',
      '/media/videos/missing.mp4',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('secret');
    }
    expect((await get('/media/%E0%A4%A')).status).toBe(400);
  });
});
