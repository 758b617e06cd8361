// Every video has a face: videos not downloaded yet (an MP4 and an HLS stream from the emulator,
// synced into the demo account) show a poster link; asking for it answers the generated poster at
// once and takes a real frame from the video's link in the background, with the ffmpeg from npm
// (no ffmpeg on the PATH), recorded like a thumbnail and announced by assets:changed. Nothing is
// downloaded for it; a later download's own poster replaces it.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import type { AssetInfo, AssetPageInfo, AssetsChangedInfo } from '../../../contract/ipc/assets.ts';
import type { DownloadsChangedInfo } from '../../../contract/ipc/library.ts';
import type { JobOutput, VideoRecord } from '../../../contract/service.ts';
import { createCore, type Core } from '../../core.ts';
import { assetFieldsFromVideo } from '../../api/server-records.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { createMemoryStore } from '../../settings/store.ts';
import { createLibrary, type LibraryDeps } from '../library.ts';
import { scopedMediaFetch, type MediaFetch } from './media-http.ts';
import { remotePosterLink } from '../../host/poster-links.ts';
import { emulatorLibraryClient } from '../test-support/emulator-client.ts';
import { emulatorCall, finishedVideos } from '../test-support/emulator-media.ts';
import { resetFfmpegLookup } from './thumbnails.ts';

let emulator: RunningEmulator;
let outputs: JobOutput[];
let core: Core;
let base: string;
const changes: AssetsChangedInfo[] = [];
const downloads: DownloadsChangedInfo[] = [];
const savedPath = process.env.PATH;

async function call<T>(channel: string, args: unknown): Promise<T> {
  const result = await core.dispatch(channel, args);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}

async function until<T>(check: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function bytesOf(body: Readable | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body ?? []) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Share of the picture in each saturated bar colour of the fixtures' test pattern (see thumbnails.test.ts). */
async function colourShares(image: Buffer | string): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const hi = 170;
  const lo = 90;
  const tests = [
    (r: number, g: number, b: number) => r > hi && g < lo && b < lo,
    (r: number, g: number, b: number) => r < lo && g > hi && b < lo,
    (r: number, g: number, b: number) => r > hi && g > hi && b < lo,
    (r: number, g: number, b: number) => r < lo && g < lo && b > hi,
    (r: number, g: number, b: number) => r > hi && g < lo && b > hi,
    (r: number, g: number, b: number) => r < lo && g > hi && b > hi,
  ];
  const counts = tests.map(() => 0);
  for (let i = 0; i < data.length; i += info.channels) {
    tests.forEach((test, k) => {
      if (test(data[i]!, data[i + 1]!, data[i + 2]!)) counts[k]! += 1;
    });
  }
  return counts.map((count) => count / (info.width * info.height));
}

const isTestPattern = async (image: Buffer | string) => Math.min(...(await colourShares(image))) > 0.03;

/** The library-relative path a browser-mode media URL names. */
const pathOf = (url: string) => decodeURIComponent(url.replace(/^\/media\//, ''));

const videos = async () =>
  (await call<AssetPageInfo>('assets:list', { filter: { kind: 'video' }, sort: 'newest', limit: 50 })).items;

beforeAll(async () => {
  // No ffmpeg on the PATH: the frame must come from the npm package's binary.
  base = await mkdtemp(join(tmpdir(), 'atelier-video-posters-'));
  process.env.PATH = join(base, 'no-ffmpeg-here');
  resetFfmpegLookup();
  emulator = await startEmulator({ seed: 43 });
  // Two finished videos on the service: the emulator answers one as an MP4, the other as HLS.
  outputs = await finishedVideos(emulator, 2, 'a face for');
  core = await createCore({
    dataDir: join(base, 'data'),
    host: { kind: 'browser', appVersion: '0.0.0', chromiumVersion: null, electronVersion: null },
    store: createMemoryStore(),
    demo: { start: async () => ({ baseUrl: emulator.url, apiKey: 'demo-key' }), stop: async () => undefined },
  });
  core.settings.update({ libraryDir: join(base, 'Library'), autoDownload: false });
  core.events.subscribe((event, payload) => {
    if (event === 'assets:changed') changes.push(payload as AssetsChangedInfo);
    if (event === 'downloads:changed') downloads.push(payload as DownloadsChangedInfo);
  });
  await call('account:use-demo', undefined);
  await call('sync:refresh', { scope: 'all' });
  await until(async () => (await videos()).length === 2);
}, 60_000);

afterAll(async () => {
  process.env.PATH = savedPath;
  resetFfmpegLookup();
  await core?.close();
  await emulator?.close();
  await rm(base, { recursive: true, force: true });
});

describe('posters of videos not downloaded yet', () => {
  it('an MP4 and an HLS stream each get a real frame, without being downloaded', async () => {
    const before = await videos();
    expect(before.map((v) => v.hls).sort()).toEqual([false, true]);
    for (const video of before) {
      expect(video.file.state).toBe('remote');
      expect(video.file.thumbPath).toBeNull();
      // A poster link, not a file: asking for it is what starts the work.
      expect(video.file.thumbUrl).toMatch(/^\/media\/\.posters\/video\/[A-Za-z0-9_-]+\.webp$/);
    }

    // Asked for (a tile shows the video): the generated poster at once, never cached.
    for (const video of before) {
      const first = await core.serveMedia({ path: pathOf(video.file.thumbUrl!) });
      expect(first.status).toBe(200);
      expect(first.headers['Content-Type']).toBe('image/webp');
      expect(first.headers['Cache-Control']).toBe('no-store');
      expect(await isTestPattern(await bytesOf(first.body))).toBe(false);
    }

    // Made in the background and announced; the renderer reloads the asset and finds the frame.
    await until(() =>
      before.every((video) => changes.some((c) => c.assets?.some((a) => a.kind === 'video' && a.id === video.id))),
    );
    for (const video of before) {
      const after = await call<AssetInfo>('assets:get', { kind: 'video', id: video.id });
      expect(after.file.state, 'nothing was downloaded').toBe('remote');
      expect(after.file.thumbPath).toMatch(/^Demo\/\.thumbs\/remote\/.+\.webp$/);
      expect(after.file.thumbUrl).toBe(`/media/${after.file.thumbPath}`);
      const served = await core.serveMedia({ path: after.file.thumbPath! });
      expect(served.status).toBe(200);
      const poster = await bytesOf(served.body);
      expect(await isTestPattern(poster), `${video.hls ? 'HLS' : 'MP4'} poster is a real frame`).toBe(true);
      // Its own shape (the fixtures are 16:9 landscape and 9:16 portrait), not the generated 16:9.
      const meta = await sharp(poster).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBe(320);
      // A link the renderer still holds now answers the frame too.
      const old = await core.serveMedia({ path: pathOf(video.file.thumbUrl!) });
      expect(await isTestPattern(await bytesOf(old.body))).toBe(true);
    }
    expect(downloads).toEqual([]);
  }, 60_000);

  it("a download's own poster replaces the one from the link", async () => {
    const [video] = (await videos()).filter((v) => !v.hls);
    const fromLink = join(base, 'Library', video!.file.thumbPath!);
    expect((await stat(fromLink)).isFile()).toBe(true);
    await call('library:download', { assets: [{ kind: 'video', id: video!.id }] });
    const own = await until(async () => {
      const now = await call<AssetInfo>('assets:get', { kind: 'video', id: video!.id });
      return now.file.state === 'downloaded' && !now.file.thumbPath?.includes('/remote/') ? now : null;
    });
    expect(own.file.thumbPath).toBe(`Demo/.thumbs/${video!.id}.webp`);
    expect(await isTestPattern(join(base, 'Library', own.file.thumbPath!))).toBe(true);
    // Recorded first, then the file from the link goes.
    await until(() =>
      stat(fromLink).then(
        () => false,
        () => true,
      ),
    );
  }, 60_000);
});

describe('a link that gives no poster', () => {
  /** A library of this account's two videos, not downloaded, fetching media through `mediaFetch`. */
  async function libraryWith(mediaFetch: MediaFetch, options: Partial<LibraryDeps> = {}) {
    const cache = openMemoryCache();
    for (const output of outputs) {
      const record = await emulatorCall<VideoRecord>(emulator, 'GET', `/videos/${output.id}`);
      cache.assets.upsertFromServer(assetFieldsFromVideo(record), Date.now());
    }
    const logged: string[] = [];
    const announced: AssetsChangedInfo[] = [];
    const root = join(base, `misses-${Math.random().toString(36).slice(2)}`);
    const library = createLibrary({
      db: cache.sqlite,
      client: emulatorLibraryClient(emulator.url),
      root: () => root,
      concurrency: () => 1,
      emitDownloads: () => undefined,
      emitAssets: (change) => announced.push(change),
      logError: (message, error) => {
        throw new Error(`${message}: ${String(error)}`);
      },
      logInfo: (message) => logged.push(message),
      mediaFetch,
      ...options,
    });
    /** What a tile's <img> gets for each video's poster link. */
    const ask = async () => {
      for (const output of outputs) {
        const reply = await library.servePoster(output.id, { path: remotePosterLink(output.id) });
        expect(reply.status).toBe(200);
        expect(reply.headers['Cache-Control']).toBe('no-store');
        expect(await isTestPattern(await bytesOf(reply.body))).toBe(false);
      }
    };
    const close = async () => {
      await library.stop();
      cache.close();
    };
    return { cache, library, logged, announced, ask, close };
  }

  const counting = (fetch: MediaFetch) => {
    const urls: string[] = [];
    const counted: MediaFetch = (url, headers, signal) => {
      urls.push(url);
      return fetch(url, headers, signal);
    };
    return { urls, fetch: counted };
  };

  it("keeps the generated poster when the account's media fetch refuses the link, asks once, logs once", async () => {
    // A remote service whose media links lead to this machine: scopedMediaFetch refuses them.
    const refusing = counting(scopedMediaFetch('https://api.service.example'));
    const t = await libraryWith(refusing.fetch);
    try {
      await t.ask();
      await t.library.posters.idle();
      expect(refusing.urls).toHaveLength(2);
      // Scrolling back and forth: the tiles ask again, nobody fetches again.
      await t.ask();
      await t.ask();
      await t.library.posters.idle();
      expect(refusing.urls).toHaveLength(2);
      expect(t.logged).toHaveLength(1);
      expect(t.logged[0]).toMatch(/refused/);
      for (const output of outputs) expect(t.cache.assets.get('video', output.id)?.thumb_path).toBeNull();
      expect(t.announced).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('offline: one try, then the queue waits instead of trying every tile', async () => {
    const offline = counting(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND media.example'), { code: 'ENOTFOUND' });
    });
    const t = await libraryWith(offline.fetch, { posters: { concurrency: 1, pauseMs: 60_000 } });
    try {
      await t.ask();
      await new Promise((r) => setTimeout(r, 200));
      expect(offline.urls).toHaveLength(1);
      expect(t.library.posters.waiting).toBe(1);
      await t.ask();
      await new Promise((r) => setTimeout(r, 100));
      expect(offline.urls).toHaveLength(1);
      expect(t.logged).toHaveLength(1);
      expect(t.logged[0]).toMatch(/unreachable/);
    } finally {
      await t.close();
    }
  });
});
