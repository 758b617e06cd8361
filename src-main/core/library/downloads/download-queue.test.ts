// The download queue against the emulator: images, prepared MP4s and HLS copies land in the
// library with their asset rows updated only after the file is in place; concurrency bound,
// throttled events, full disk → paused queue, cut connections and dead links recovered.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import { AppError } from '../../../contract/errors.ts';
import type { DownloadsChangedInfo } from '../../../contract/ipc/library.ts';
import type { AccountDb } from '../../db/account-db.ts';
import { assetFieldsFromImage, assetFieldsFromVideo } from '../../api/server-records.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { DownloadQueue, type DownloadQueueDeps } from './download-queue.ts';
import { emulatorCall, finishedImages, finishedVideos } from '../test-support/emulator-media.ts';
import { emulatorLibraryClient } from '../test-support/emulator-client.ts';
import { fetchMedia, type MediaFetch } from '../media/media-http.ts';
import { nodePartFs, type PartFs } from './transfer.ts';
import type { ImageRecord, JobOutput, VideoRecord } from '../../../contract/service.ts';

let emulator: RunningEmulator;
let root: string;
let cache: AccountDb;
let queue: DownloadQueue | null = null;
let events: DownloadsChangedInfo[];

beforeAll(async () => {
  emulator = await startEmulator({ seed: 11, timeScale: 1 });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  emulator.control.clearFaults();
  root = await mkdtemp(join(tmpdir(), 'atelier-queue-'));
  cache = openMemoryCache();
  events = [];
});
afterEach(async () => {
  await queue?.stop();
  queue = null;
  cache.close();
  await rm(root, { recursive: true, force: true });
});

function makeQueue(extra: Partial<DownloadQueueDeps> = {}, concurrency = 2): DownloadQueue {
  queue = new DownloadQueue({
    db: cache.sqlite,
    assets: cache.assets,
    root: () => root,
    client: emulatorLibraryClient(emulator.url),
    concurrency: () => concurrency,
    emit: (change) => events.push(change),
    prepareIntervalMs: 20,
    retryDelayMs: () => 20,
    progressIntervalMs: 50,
    ...extra,
  });
  queue.start();
  return queue;
}

async function addImages(outputs: JobOutput[]): Promise<void> {
  for (const output of outputs) {
    const record = await emulatorCall<ImageRecord>(emulator, 'GET', `/images/${output.id}`);
    cache.assets.upsertFromServer(assetFieldsFromImage(record), Date.now());
  }
}
async function addVideos(outputs: JobOutput[]): Promise<void> {
  for (const output of outputs) {
    const record = await emulatorCall<VideoRecord>(emulator, 'GET', `/videos/${output.id}`);
    cache.assets.upsertFromServer(assetFieldsFromVideo(record), Date.now());
  }
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const state = (kind: 'image' | 'video', id: string) => cache.assets.get(kind, id)?.file_state;

describe('DownloadQueue', () => {
  it('downloads images with the right bytes and commits the asset only with the file in place', async () => {
    const images = await finishedImages(emulator, 3);
    await addImages(images);
    const q = makeQueue({}, 2);
    q.enqueue(images.map((i) => ({ kind: 'image' as const, id: i.id })));
    await until(() => images.every((i) => state('image', i.id) === 'downloaded'));
    for (const image of images) {
      const asset = cache.assets.get('image', image.id)!;
      expect(asset.local_path).toBe(`images/${image.id}.jpg`);
      const bytes = await readFile(join(root, asset.local_path!));
      const served = Buffer.from(await (await fetch(image.url)).arrayBuffer());
      expect(bytes.equals(served)).toBe(true);
      expect(asset.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    expect((await readdir(join(root, 'images'))).some((n) => n.endsWith('.part'))).toBe(false);
    expect(Math.max(...events.map((e) => e.queue.active))).toBeLessThanOrEqual(2);
    // Every 'downloaded' asset has its file: never the other way round.
    expect(q.list().items.every((i) => i.state === 'succeeded')).toBe(true);
  });

  it('prepares a video with the two-step download, showing percentComplete, then saves the MP4', async () => {
    const videos = await finishedVideos(emulator, 2, 'waves');
    await addVideos(videos);
    const client = emulatorLibraryClient(emulator.url);
    const q = makeQueue({ client });
    const ref = { kind: 'video' as const, id: videos[0]!.id };
    q.enqueue([ref]);
    // The emulator prepares for 4–10 virtual seconds: move its clock while we poll.
    const ticker = setInterval(() => emulator.control.advanceClock(1_000), 15);
    try {
      await until(() => state('video', ref.id) === 'downloaded');
    } finally {
      clearInterval(ticker);
    }
    expect(client.calls).toContain(`GET /videos/${ref.id}/create-download`);
    expect(client.calls.filter((c) => c.endsWith('/download')).length).toBeGreaterThan(1);
    const percents = events
      .flatMap((e) => e.changed)
      .filter((d) => d.state === 'preparing')
      .map((d) => d.preparePercent);
    expect(percents.some((p) => p !== null && p > 0 && p < 100)).toBe(true);
    const asset = cache.assets.get('video', ref.id)!;
    expect(asset.local_path).toBe(`videos/${ref.id}.mp4`);
    expect((await stat(join(root, asset.local_path!))).size).toBe(asset.bytes);
  });

  it('explains a failed preparation and prepares again on retry', async () => {
    const videos = await finishedVideos(emulator, 1, '[fail-download] storm');
    await addVideos(videos);
    const q = makeQueue();
    const ref = { kind: 'video' as const, id: videos[0]!.id };
    q.enqueue([ref]);
    const ticker = setInterval(() => emulator.control.advanceClock(2_000), 15);
    try {
      await until(() => state('video', ref.id) === 'failed');
      const item = q.list().items.find((i) => i.asset.id === ref.id)!;
      expect(item.error?.message).toMatch(/could not prepare this video.*Retry/);
      q.retry([ref]);
      expect(q.list().items.find((i) => i.asset.id === ref.id)?.state).not.toBe('failed');
      await until(() => state('video', ref.id) === 'failed');
    } finally {
      clearInterval(ticker);
    }
  });

  it('copies an HLS video for offline playback when asked', async () => {
    const videos = await finishedVideos(emulator, 2, 'hls');
    await addVideos(videos);
    const hls = videos.find((v) => v.url.endsWith('.m3u8'))!;
    const q = makeQueue();
    q.enqueue([{ kind: 'video', id: hls.id }], 'hls');
    await until(() => state('video', hls.id) === 'downloaded');
    const asset = cache.assets.get('video', hls.id)!;
    expect(asset.local_path).toBe(`videos/${hls.id}.hls/index.m3u8`);
    expect((await readdir(join(root, 'videos', `${hls.id}.hls`))).filter((n) => n.endsWith('.ts'))).toHaveLength(3);
  });

  it('resumes after a cut connection without starting over', async () => {
    const images = await finishedImages(emulator, 1, 'a very detailed mountain');
    await addImages(images);
    emulator.control.setFaults({ rules: [{ path: '/media/*', cutMediaAfterBytes: { bytes: 2_000, count: 1 } }] });
    const q = makeQueue();
    q.enqueue([{ kind: 'image', id: images[0]!.id }]);
    await until(() => state('image', images[0]!.id) === 'downloaded');
    const served = Buffer.from(await (await fetch(images[0]!.url)).arrayBuffer());
    expect(await readFile(join(root, cache.assets.get('image', images[0]!.id)!.local_path!))).toEqual(served);
    expect(events.flatMap((e) => e.changed).some((d) => d.error?.code === 'network')).toBe(true);
  });

  it('never reports a negative count, with transfers ending, failing, cut off and cancelled', async () => {
    const images = [
      ...(await finishedImages(emulator, 4, 'counted scene')),
      ...(await finishedImages(emulator, 4, 'counted sky')),
    ];
    await addImages(images);
    // Cut transfers (retried), and one link that stays dead (fails for good); some latency so
    // transfers overlap while others end.
    emulator.control.setFaults({
      rules: [
        { path: '/media/*', latencyMs: 30, cutMediaAfterBytes: { bytes: 1_000, count: 3 } },
        { path: `/media/*/image/${images[7]!.id}.jpg`, serverError: { status: 500 } },
      ],
    });
    const q = makeQueue({}, 3);
    q.enqueue(images.map((i) => ({ kind: 'image' as const, id: i.id })));
    await until(() => q.queueInfo().active > 0);
    await q.cancel([{ kind: 'image', id: images[6]!.id }]);
    await until(() => q.list().items.every((i) => i.state === 'succeeded' || i.state === 'failed'), 20_000);
    const figures = [...events.map((e) => e.queue), q.queueInfo()];
    const negative = figures.filter((f) => f.waiting < 0 || f.active < 0 || f.failed < 0);
    expect(negative, `figures below zero: ${JSON.stringify(negative.slice(0, 3))}`).toEqual([]);
    // Every figure is a count of real rows: never more waiting and active than unfinished downloads.
    expect(figures.every((f) => f.waiting + f.active <= images.length)).toBe(true);
    expect(q.queueInfo()).toMatchObject({ active: 0, waiting: 0 });
  });

  it('retries a 5xx during a download as transient, from the media host or from the service (the one classifier)', async () => {
    const images = await finishedImages(emulator, 2, 'flaky host');
    await addImages(images);
    const [viaHost, viaService] = [images[0]!, images[1]!];
    emulator.control.setFaults({
      rules: [
        // The media host answers 503 twice, then the file.
        { path: `/media/*/image/${viaHost.id}.jpg`, serverError: { status: 503, count: 2 } },
      ],
    });
    // A dead link: the fresh one is asked of the service, which first answers a 5xx worded with a
    // code of its own (as backoff.test.ts's "a 5xx with an unusual code").
    const dead = cache.assets.get('image', viaService.id)!;
    cache.sqlite
      .prepare('UPDATE assets SET url = ? WHERE seq = ?')
      .run(`${emulator.url}/media/expired-token/image/${dead.id}.jpg`, dead.seq);
    const service = emulatorLibraryClient(emulator.url);
    let refreshes = 0;
    const client = {
      ...service,
      getImage: async (id: string) => {
        if (id === viaService.id && (refreshes += 1) === 1)
          throw new AppError({ code: 'internal', message: 'The service had a problem (HTTP 502).', httpStatus: 502 });
        return service.getImage(id);
      },
    };
    const q = makeQueue({ client });
    q.enqueue(images.map((i) => ({ kind: 'image' as const, id: i.id })));
    await until(() => images.every((i) => state('image', i.id) === 'downloaded' || state('image', i.id) === 'failed'));
    expect([state('image', viaHost.id), state('image', viaService.id)]).toEqual(['downloaded', 'downloaded']);
    const waits = events.flatMap((e) => e.changed).filter((d) => d.error !== null);
    // Waiting, not failed, and said as what it was: the host's 5xx is the service-side code.
    expect(waits.filter((d) => d.asset.id === viaHost.id).map((d) => [d.state, d.error?.code])).toContainEqual([
      'queued',
      'server',
    ]);
    expect(waits.filter((d) => d.asset.id === viaService.id).map((d) => [d.state, d.error?.code])).toContainEqual([
      'queued',
      'internal',
    ]);
    expect(refreshes).toBe(2);
  });

  it('pauses the whole queue on a full disk with a clear message, and resumes', async () => {
    const images = await finishedImages(emulator, 2, 'full disk');
    await addImages(images);
    let full = true;
    const fs: PartFs = {
      ...nodePartFs,
      writer: (path, start) =>
        full
          ? new Writable({
              write: (_c, _e, done) =>
                done(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })),
            })
          : nodePartFs.writer(path, start),
    };
    const q = makeQueue({ fs });
    q.enqueue(images.map((i) => ({ kind: 'image' as const, id: i.id })));
    await until(() => q.queueInfo().pauseReason === 'disk_full');
    expect(q.queueInfo().message).toBe('Paused: disk full — free space and press Resume.');
    expect(images.every((i) => state('image', i.id) !== 'downloaded')).toBe(true);
    full = false;
    q.resume();
    await until(() => images.every((i) => state('image', i.id) === 'downloaded'));
  });

  it('fetches a fresh link when the stored one is dead', async () => {
    const images = await finishedImages(emulator, 1, 'expired');
    await addImages(images);
    const asset = cache.assets.get('image', images[0]!.id)!;
    cache.sqlite
      .prepare('UPDATE assets SET url = ? WHERE seq = ?')
      .run(`${emulator.url}/media/expired-token/image/${asset.id}.jpg`, asset.seq);
    const q = makeQueue();
    q.enqueue([{ kind: 'image', id: asset.id }]);
    await until(() => state('image', asset.id) === 'downloaded');
  });

  it('pauses and resumes one item, and cancel removes its partial file', async () => {
    const images = await finishedImages(emulator, 1, 'pause me');
    await addImages(images);
    emulator.control.setFaults({ rules: [{ path: '/media/*', latencyMs: 300 }] });
    const q = makeQueue();
    const ref = { kind: 'image' as const, id: images[0]!.id };
    q.enqueue([ref]);
    await until(() => q.queueInfo().active === 1);
    q.pause([ref]);
    await until(() => q.list().items[0]?.state === 'paused');
    expect(state('image', ref.id)).toBe('queued');
    await q.cancel([ref]);
    expect(q.list().items).toHaveLength(0);
    expect(state('image', ref.id)).toBe('remote');
    expect(await readdir(join(root, 'images')).catch(() => [])).toEqual([]);
  });

  it('commits a file renamed into place just before a crash, without fetching it again', async () => {
    const url = `${emulator.url}/media/blob/30000?seed=crash`;
    cache.sqlite
      .prepare(
        "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', 'crash', 'generated', ?, 1, 1)",
      )
      .run(url);
    const seedQueue = new DownloadQueue({
      db: cache.sqlite,
      assets: cache.assets,
      root: () => root,
      client: emulatorLibraryClient(emulator.url),
      concurrency: () => 1,
      emit: () => undefined,
    });
    seedQueue.enqueue([{ kind: 'image', id: 'crash' }]);
    // The state a kill between rename and commit leaves: final file complete, no part, row downloading.
    const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
    await mkdir(join(root, 'images'), { recursive: true });
    await writeFile(join(root, 'images', 'crash.jpg'), bytes);
    cache.sqlite
      .prepare("UPDATE downloads SET state = 'downloading', bytes_total = ?, etag = ?")
      .run(bytes.length, '"x"');
    expect(state('image', 'crash')).toBe('queued');
    const q = makeQueue({ fetch: () => Promise.reject(new Error('must not fetch')) });
    await until(() => state('image', 'crash') === 'downloaded');
    expect(cache.assets.get('image', 'crash')?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(q.list().items[0]?.state).toBe('succeeded');
  });

  it('throttles progress events to a few per second per item', async () => {
    cache.sqlite
      .prepare(
        "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', 'big', 'generated', ?, 1, 1)",
      )
      .run(`${emulator.url}/media/blob/4000000?seed=big`);
    // A slow link: every 64 KiB chunk takes 10 ms, so the transfer lasts well over a second.
    const slowFetch: MediaFetch = async (url, headers, signal) => {
      const response = await fetchMedia(url, headers, signal);
      const slow = new Transform({
        transform(chunk, _e, done) {
          setTimeout(() => done(null, chunk), 10);
        },
      });
      return { ...response, body: response.body.pipe(slow) };
    };
    const q = makeQueue({ progressIntervalMs: 250, fetch: slowFetch });
    const started = Date.now();
    q.enqueue([{ kind: 'image', id: 'big' }]);
    await until(() => state('image', 'big') === 'downloaded', 30_000);
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeGreaterThan(0.5);
    const progressEvents = events.filter((e) =>
      e.changed.some((d) => d.asset.id === 'big' && d.state === 'downloading'),
    ).length;
    expect(progressEvents).toBeGreaterThan(1);
    expect(progressEvents).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 3);
    const speeds = events
      .flatMap((e) => e.changed)
      .map((d) => d.bytesPerSecond)
      .filter((v) => v !== null);
    expect(speeds.length).toBeGreaterThan(0);
  });
});
