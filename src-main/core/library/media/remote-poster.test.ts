// Posters for videos not downloaded yet: a real frame from the head of the MP4 or the first
// segment of the stream, fetched from a loopback server that records what it was asked (no API
// key, bounded bytes, one segment), with ffmpeg from npm and no ffmpeg on the PATH.
import { readFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scopedMediaFetch } from './media-http.ts';
import { fetchVideoSample, SAMPLE_MAX_BYTES } from './remote-sample.ts';
import { ensureRemotePoster, resetFfmpegLookup, type RemotePosterResult, type ThumbnailResult } from './thumbnails.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'emulator', 'fixtures');
const savedPath = process.env.PATH;
let server: Server;
let base = '';
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
// The library's media fetch for a service on this machine (the emulator's case): loopback allowed.
const fetch = scopedMediaFetch('http://127.0.0.1:8787');

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ path, headers: req.headers });
    if (path === '/hang.mp4') return; // never answers
    const file =
      path === '/v.mp4' || path === '/whole.mp4'
        ? join(FIXTURES, 'video-portrait.mp4')
        : path.startsWith('/hls/')
          ? join(FIXTURES, path.replace(/\.ts$/, '.ts.bin'))
          : null;
    const bytes = file ? await readFile(file).catch(() => null) : null;
    if (!bytes) return void res.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (range && path !== '/whole.mp4') {
      const from = Number(range[1]);
      const to = Math.min(Number(range[2]), bytes.length - 1);
      res.writeHead(206, { 'content-range': `bytes ${from}-${to}/${bytes.length}`, 'content-length': to - from + 1 });
      return void res.end(bytes.subarray(from, to + 1));
    }
    res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-remote-poster-'));
  seen.length = 0;
  process.env.PATH = join(root, 'no-ffmpeg-here');
  resetFfmpegLookup();
});
afterEach(async () => {
  process.env.PATH = savedPath;
  resetFfmpegLookup();
  await rm(root, { recursive: true, force: true });
});

/** The fixtures' test pattern has large saturated bars; the generated poster has none. */
async function saturatedShare(file: string): Promise<number> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let saturated = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const values = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (Math.max(...values) > 170 && Math.min(...values) < 90) saturated += 1;
  }
  return saturated / (info.width * info.height);
}

/** The poster made, failing the test with the reason when there is none. */
function made(result: RemotePosterResult): ThumbnailResult {
  if (result.missed) throw new Error(`no poster: ${result.missed} (${result.detail})`);
  return result;
}

const noCredentials = () => {
  for (const request of seen) {
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers.cookie).toBeUndefined();
  }
};

describe('ensureRemotePoster', () => {
  it('takes a real frame from the head of an MP4, asking for a bounded range and sending no key', async () => {
    const poster = made(await ensureRemotePoster({ fetch, root, safeName: 'v1', url: `${base}/v.mp4` }));
    // Beside the thumbnails, not in the downloaded file's place: that one replaces it later.
    expect(poster).toEqual({ path: '.thumbs/remote/v1.webp', created: true, kind: 'frame' });
    const meta = await sharp(join(root, poster.path)).metadata();
    expect([meta.width, meta.height]).toEqual([180, 320]);
    expect(await saturatedShare(join(root, poster.path))).toBeGreaterThan(0.5);
    expect(seen.map((r) => [r.path, r.headers.range])).toEqual([['/v.mp4', `bytes=0-${SAMPLE_MAX_BYTES - 1}`]]);
    noCredentials();
  });

  it('takes a real frame from the first segment of the lightest HLS variant that fills a thumbnail', async () => {
    const poster = made(
      await ensureRemotePoster({
        fetch,
        root,
        safeName: 'h1',
        url: `${base}/hls/master.m3u8`,
        area: 'Demo',
      }),
    );
    expect(poster).toMatchObject({ path: 'Demo/.thumbs/remote/h1.webp', kind: 'frame' });
    const meta = await sharp(join(root, poster.path)).metadata();
    expect([meta.width, meta.height]).toEqual([320, 180]);
    expect(await saturatedShare(join(root, poster.path))).toBeGreaterThan(0.5);
    // 320×180 fills the thumbnail, 192×108 would not; one segment only.
    expect(seen.map((r) => r.path)).toEqual(['/hls/master.m3u8', '/hls/v0/index.m3u8', '/hls/v0/seg0.ts']);
    noCredentials();
  });

  it('stops reading at the byte bound when the server ignores Range', async () => {
    const size = (await stat(join(FIXTURES, 'video-portrait.mp4'))).size;
    const maxBytes = Math.floor(size * 0.6);
    const poster = made(await ensureRemotePoster({ fetch, root, safeName: 'w', url: `${base}/whole.mp4`, maxBytes }));
    // The head of a fast-start MP4 still holds its first frames.
    expect(poster.kind).toBe('frame');
    expect(seen[0]?.headers.range).toBe(`bytes=0-${maxBytes - 1}`);
    const sample = await fetchVideoSample({
      fetch,
      url: `${base}/whole.mp4`,
      dir: root,
      signal: AbortSignal.timeout(5000),
      maxBytes,
    });
    expect((await stat(sample!)).size).toBe(maxBytes);
  });

  it('gives up in time on a link that never answers, and on a missing one, writing nothing', async () => {
    const started = Date.now();
    expect(
      await ensureRemotePoster({ fetch, root, safeName: 'x', url: `${base}/hang.mp4`, timeoutMs: 800 }),
    ).toMatchObject({ missed: 'unreachable' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await ensureRemotePoster({ fetch, root, safeName: 'y', url: `${base}/missing.mp4` })).toMatchObject({
      missed: 'no-frame',
    });
    await expect(stat(join(root, '.thumbs', 'remote', 'x.webp'))).rejects.toThrow();
    await expect(stat(join(root, '.thumbs', 'remote', 'y.webp'))).rejects.toThrow();
  });

  it('stops when asked (the library closing)', async () => {
    const stop = new AbortController();
    const pending = ensureRemotePoster({ fetch, root, safeName: 's', url: `${base}/hang.mp4`, signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    expect(await pending).toMatchObject({ missed: 'unreachable' });
  });

  it("goes through the account's media fetch: a remote service's links to this machine are refused", async () => {
    const remote = scopedMediaFetch('https://api.service.example');
    expect(await ensureRemotePoster({ fetch: remote, root, safeName: 'z', url: `${base}/v.mp4` })).toMatchObject({
      missed: 'refused',
    });
    expect(seen).toEqual([]);
  });

  it('keeps a poster it already has without asking again', async () => {
    await ensureRemotePoster({ fetch, root, safeName: 'v2', url: `${base}/v.mp4` });
    seen.length = 0;
    expect(await ensureRemotePoster({ fetch, root, safeName: 'v2', url: `${base}/v.mp4` })).toMatchObject({
      created: false,
    });
    expect(seen).toEqual([]);
  });
});
