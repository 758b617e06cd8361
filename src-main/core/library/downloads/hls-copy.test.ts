// HLS offline copies: the emulator's real stream (played back by ffmpeg from local files only),
// and hand-made playlists for init sections, keys, byte ranges, audio renditions and live streams.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import * as HLS from 'hls-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import { chooseVariant, copyHlsOffline, HLS_ENTRY } from './hls-copy.ts';
import type { MediaFetch } from '../media/media-http.ts';
import { findFfmpeg } from '../media/thumbnails.ts';
import { DownloadError } from './download-error.ts';
import { finishedVideos } from '../test-support/emulator-media.ts';

let emulator: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({ seed: 3 });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-hls-'));
  return () => rm(dir, { recursive: true, force: true });
});

const signal = () => new AbortController().signal;

/** Serves an in-memory site; counts requests per path. */
function siteFetch(files: Record<string, string | Buffer>) {
  const hits = new Map<string, number>();
  const fetch: MediaFetch = async (url) => {
    const path = new URL(url).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = files[path];
    if (body === undefined) return { status: 404, headers: {}, body: Readable.from([]) };
    const bytes = Buffer.from(body);
    return {
      status: 200,
      headers: { 'content-length': String(bytes.length), etag: `"${path}"` },
      body: Readable.from([bytes]),
    };
  };
  return { fetch, hits };
}

/** Every URI of every local playlist must be a plain file name present in the folder. */
async function expectSelfContained(folder: string): Promise<string[]> {
  const names = await readdir(folder);
  const uris: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.m3u8'))) {
    const text = await readFile(join(folder, name), 'utf8');
    for (const line of text.split('\n')) {
      const found = line.startsWith('#')
        ? [...line.matchAll(/URI="([^"]+)"/g)].map((m) => m[1] ?? '')
        : line.trim()
          ? [line.trim()]
          : [];
      for (const uri of found) {
        expect(uri).toMatch(/^[A-Za-z0-9._-]+$/);
        expect(names).toContain(uri);
        uris.push(uri);
      }
    }
  }
  expect(names.some((n) => n.endsWith('.part'))).toBe(false);
  return uris;
}

describe('copyHlsOffline against the emulator', () => {
  it('copies one variant with all its segments and plays back from local files only', async () => {
    const videos = await finishedVideos(emulator, 2);
    const hls = videos.find((v) => v.url.endsWith('.m3u8'));
    expect(hls).toBeDefined();
    const target = join(dir, 'v.hls');
    const progress: number[] = [];
    const result = await copyHlsOffline({
      url: hls!.url,
      targetDir: target,
      stagingDir: join(dir, 'v.hls.partial'),
      signal: signal(),
      onProgress: (p) => progress.push(p.filesDone),
    });
    expect(result.entry).toBe(HLS_ENTRY);
    expect(result.variant?.bandwidth).toBe(400_000); // highest under the cap
    const uris = await expectSelfContained(target);
    expect(uris.filter((u) => u.endsWith('.ts'))).toHaveLength(3);
    expect(progress.at(-1)).toBe(3);
    await expect(stat(join(dir, 'v.hls.partial'))).rejects.toThrow();

    const ffmpeg = await findFfmpeg();
    if (ffmpeg) {
      // The emulator is not asked for anything while ffmpeg reads: only file: is whitelisted.
      emulator.control.resetStats();
      const { stderr } = await promisify(execFile)(ffmpeg, [
        '-v',
        'error',
        '-protocol_whitelist',
        'file',
        '-i',
        join(target, HLS_ENTRY),
        '-f',
        'null',
        '-',
      ]);
      expect(stderr).toBe('');
      expect(emulator.control.stats().total).toBe(0);
    }
  });
});

describe('copyHlsOffline with hand-made playlists', () => {
  it('copies init sections, keys and byte-range segments once each, and the default audio rendition', async () => {
    const site = siteFetch({
      '/s/master.m3u8': [
        '#EXTM3U',
        '#EXT-X-VERSION:7',
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en.m3u8"',
        '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="en",URI="subs/en.m3u8"',
        '#EXT-X-STREAM-INF:BANDWIDTH=20000000,AUDIO="aud"',
        'hi/index.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=5000000,AUDIO="aud",SUBTITLES="subs"',
        'mid/index.m3u8',
        '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="iframes.m3u8"',
      ].join('\n'),
      '/s/mid/index.m3u8': [
        '#EXTM3U',
        '#EXT-X-VERSION:7',
        '#EXT-X-TARGETDURATION:4',
        '#EXT-X-MAP:URI="init.mp4"',
        '#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k1",IV=0x00000000000000000000000000000001',
        '#EXTINF:4,',
        '#EXT-X-BYTERANGE:100@0',
        'media.m4s',
        '#EXTINF:4,',
        '#EXT-X-BYTERANGE:100@100',
        'media.m4s',
        '#EXT-X-ENDLIST',
      ].join('\n'),
      '/s/audio/en.m3u8': [
        '#EXTM3U',
        '#EXT-X-TARGETDURATION:4',
        '#EXTINF:4,',
        'a0.aac',
        '#EXTINF:4,',
        'a1.aac',
        '#EXT-X-ENDLIST',
      ].join('\n'),
      '/s/mid/init.mp4': 'init',
      '/s/mid/media.m4s': Buffer.alloc(200, 7),
      '/k1': Buffer.alloc(16, 1),
      '/s/audio/a0.aac': 'a0',
      '/s/audio/a1.aac': 'a1',
    });
    const target = join(dir, 'x.hls');
    const result = await copyHlsOffline({
      url: 'https://cdn.example/s/master.m3u8',
      targetDir: target,
      stagingDir: join(dir, 'x.partial'),
      signal: signal(),
      fetch: site.fetch,
    });
    expect(result.variant?.bandwidth).toBe(5_000_000);
    await expectSelfContained(target);
    expect(site.hits.get('/s/mid/media.m4s')).toBe(1);
    expect(site.hits.get('/s/hi/index.m3u8')).toBeUndefined();
    expect(site.hits.get('/s/subs/en.m3u8')).toBeUndefined();
    const master = HLS.parse(await readFile(join(target, HLS_ENTRY), 'utf8')) as InstanceType<
      typeof HLS.types.MasterPlaylist
    >;
    expect(master.variants).toHaveLength(1);
    expect(master.variants[0]?.audio[0]?.uri).toBe('audio.m3u8');
    const video = await readFile(join(target, 'video.m3u8'), 'utf8');
    expect(video).toContain('#EXT-X-BYTERANGE:100@100');
    expect(video).toMatch(/#EXT-X-KEY:METHOD=AES-128,URI="key0\.key",IV=0x0+1/);
    expect(await readFile(join(target, 'key0.key'))).toEqual(Buffer.alloc(16, 1));
  });

  it('refuses a live playlist (no ENDLIST) without writing anything', async () => {
    const site = siteFetch({ '/live.m3u8': '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n' });
    const error = await copyHlsOffline({
      url: 'https://cdn.example/live.m3u8',
      targetDir: join(dir, 'l'),
      stagingDir: join(dir, 'l.partial'),
      signal: signal(),
      fetch: site.fetch,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toMatch(/Live streams cannot be saved/);
    await expect(stat(join(dir, 'l'))).rejects.toThrow();
  });

  it('refuses DRM key systems', async () => {
    const site = siteFetch({
      '/d.m3u8':
        '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://x",KEYFORMAT="com.apple.streamingkeydelivery"\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n',
    });
    await expect(
      copyHlsOffline({
        url: 'https://cdn.example/d.m3u8',
        targetDir: join(dir, 'd'),
        stagingDir: join(dir, 'd.partial'),
        signal: signal(),
        fetch: site.fetch,
      }),
    ).rejects.toThrow(/DRM/);
  });

  it('refuses something that is not a playlist', async () => {
    const site = siteFetch({ '/x.m3u8': '<html>' });
    await expect(
      copyHlsOffline({
        url: 'https://cdn.example/x.m3u8',
        targetDir: join(dir, 'x'),
        stagingDir: join(dir, 'x.partial'),
        signal: signal(),
        fetch: site.fetch,
      }),
    ).rejects.toThrow(/not an HLS playlist/);
  });

  it('skips files finished by an earlier attempt', async () => {
    const files = {
      '/m.m3u8': '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n#EXT-X-ENDLIST\n',
      '/a.ts': 'A',
      '/b.ts': 'B',
    };
    const first = siteFetch({ ...files, '/b.ts': undefined as unknown as string });
    const options = {
      url: 'https://cdn.example/m.m3u8',
      targetDir: join(dir, 'r'),
      stagingDir: join(dir, 'r.partial'),
      signal: signal(),
    };
    await expect(copyHlsOffline({ ...options, fetch: first.fetch })).rejects.toThrow();
    const second = siteFetch(files);
    await copyHlsOffline({ ...options, fetch: second.fetch });
    expect(second.hits.get('/a.ts')).toBeUndefined();
    expect(second.hits.get('/b.ts')).toBe(1);
  });
});

describe('chooseVariant', () => {
  const variant = (bandwidth: number, extra: object = {}) =>
    new HLS.types.Variant({ uri: `${bandwidth}.m3u8`, bandwidth, ...extra });
  it('takes the highest bandwidth under the cap, or the lowest when all are above', () => {
    expect(chooseVariant([variant(1e6), variant(9e6), variant(4e6)])?.bandwidth).toBe(4e6);
    expect(chooseVariant([variant(30e6), variant(12e6)])?.bandwidth).toBe(12e6);
    expect(chooseVariant([variant(1e6, { isIFrameOnly: true })])).toBeUndefined();
  });
});
