// Media facts read from downloaded files: an image's size and format through sharp, a video's frame
// size and length through the app's ffmpeg, an HLS copy's length from its playlist; and the library
// records them (facts_from 'file') over what the service said, for the viewer, tooltips and sidecars.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import type { ImageRecord, VideoRecord } from '../../../contract/service.ts';
import type { AccountDb } from '../../db/account-db.ts';
import { assetFieldsFromImage, assetFieldsFromVideo } from '../../api/server-records.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { parseProbe, readFileFacts } from './file-facts.ts';
import { createLibrary, type Library } from '../library.ts';
import { emulatorLibraryClient } from '../test-support/emulator-client.ts';
import { emulatorCall, finishedImages, finishedVideos } from '../test-support/emulator-media.ts';

const FIXTURE = new URL('../../../../emulator/fixtures/video-landscape.mp4', import.meta.url).pathname;

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'atelier-facts-'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('readFileFacts', () => {
  it('reads an image’s size and format', async () => {
    const file = join(base, 'a.png');
    await sharp({ create: { width: 1024, height: 672, channels: 3, background: '#345' } })
      .png()
      .toFile(file);
    expect(await readFileFacts('image', file)).toEqual({ width: 1024, height: 672, durationMs: null, format: 'png' });
    await writeFile(join(base, 'b.jpg'), 'not a picture');
    expect(await readFileFacts('image', join(base, 'b.jpg'))).toEqual({
      width: null,
      height: null,
      durationMs: null,
      format: null,
    });
  });

  it('reads a video’s frame size and length with the app’s ffmpeg', async () => {
    expect(await readFileFacts('video', FIXTURE)).toEqual({ width: 320, height: 180, durationMs: 2520, format: 'mp4' });
  });

  it('reads an HLS copy’s length from its playlist when ffmpeg cannot open it', async () => {
    const dir = join(base, 'v.hls');
    await mkdir(dir);
    await writeFile(
      join(dir, 'index.m3u8'),
      '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nmissing0.ts\n#EXTINF:2.5,\nmissing1.ts\n#EXT-X-ENDLIST\n',
    );
    expect(await readFileFacts('video', join(dir, 'index.m3u8'))).toMatchObject({ durationMs: 6500, format: 'hls' });
  });

  it('parses ffmpeg’s report: duration and the first video stream', () => {
    const report = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'x.mp4':
  Duration: 01:02:03.45, start: 0.000000, bitrate: 212 kb/s
    Stream #0:0(und): Video: h264 (Constrained Baseline) (avc1 / 0x31637661), yuv420p, 1920x1080 [SAR 1:1 DAR 16:9], 25 fps
    Stream #0:1(und): Audio: aac (LC), 44100 Hz, stereo`;
    expect(parseProbe(report)).toEqual({ width: 1920, height: 1080, durationMs: 3_723_450 });
    expect(parseProbe('')).toEqual({ width: null, height: null, durationMs: null });
  });
});

describe('the library records a download’s facts', () => {
  let emulator: RunningEmulator;
  let cache: AccountDb;
  let library: Library;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 5 });
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    cache = openMemoryCache();
    library = createLibrary({
      db: cache.sqlite,
      client: emulatorLibraryClient(emulator.url),
      root: () => join(base, 'Library'),
      concurrency: () => 2,
      emitDownloads: () => undefined,
      emitAssets: () => undefined,
      logError: (message, error) => {
        throw new Error(`${message}: ${String(error)}`);
      },
      queue: { prepareIntervalMs: 20, retryDelayMs: () => 20 },
    });
    library.start();
  });
  afterEach(async () => {
    await library.stop();
    cache.close();
  });

  const until = async (check: () => boolean): Promise<void> => {
    for (let i = 0; i < 1500 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
    if (!check()) throw new Error('timed out waiting');
  };

  it('an image: its true size and format, in the export’s sidecar too', async () => {
    const [output] = await finishedImages(emulator, 1, 'facts please');
    const record = await emulatorCall<ImageRecord>(emulator, 'GET', `/images/${output!.id}`);
    // What the service's data says first (the emulator reports its size).
    cache.assets.upsertFromServer(assetFieldsFromImage({ ...record, data: { width: 10, height: 10 } }), Date.now());
    expect(cache.assets.get('image', output!.id)).toMatchObject({ width: 10, facts_from: 'service' });
    library.download([{ kind: 'image', id: output!.id }]);
    await until(() => cache.assets.get('image', output!.id)?.facts_from === 'file');
    expect(cache.assets.get('image', output!.id)).toMatchObject({
      width: 1024,
      height: 1024,
      format: 'jpeg',
      facts_from: 'file',
    });
    const to = join(base, 'Export');
    await library.exportTo([{ kind: 'image', id: output!.id }], to);
    const sidecar = JSON.parse(await readFile(join(to, `${output!.id}.json`), 'utf8'));
    expect(sidecar).toMatchObject({ width: 1024, height: 1024, format: 'jpeg' });
  });

  it('a video: its frame size and length from the file, replacing what its request asked for; an HLS copy too', async () => {
    const videos = await finishedVideos(emulator, 2, 'facts of a clip');
    for (const output of videos) {
      const record = await emulatorCall<VideoRecord>(emulator, 'GET', `/videos/${output.id}`);
      cache.assets.upsertFromServer(assetFieldsFromVideo({ ...record, data: {} }), Date.now());
      cache.assets.recordGeneration('video', output.id, {
        params: { modelID: 'videoa-3.1', prompt: 'facts of a clip', options: { videoa: {} } },
      });
      expect(cache.assets.get('video', output.id)).toMatchObject({ width: 1280, duration_ms: 8000 });
    }
    const hls = videos.find((v) => v.url.endsWith('.m3u8'));
    expect(hls, 'one of the two is a playlist (the emulator alternates)').toBeDefined();
    const mp4 = videos.find((v) => v !== hls)!;
    library.download([{ kind: 'video', id: mp4.id }], 'mp4');
    if (hls) library.download([{ kind: 'video', id: hls.id }], 'hls');
    // The emulator prepares an MP4 for 4–10 virtual seconds: move its clock while we wait.
    const ticker = setInterval(() => emulator.control.advanceClock(1_000), 15);
    try {
      await until(() => videos.every((v) => cache.assets.get('video', v.id)?.facts_from === 'file'));
    } finally {
      clearInterval(ticker);
    }
    expect(cache.assets.get('video', mp4.id)).toMatchObject({ width: 320, height: 180, format: 'mp4' });
    expect(cache.assets.get('video', mp4.id)!.duration_ms).toBeGreaterThan(2000);
    expect(cache.assets.get('video', mp4.id)!.duration_ms).toBeLessThan(3000);
    if (hls) {
      const row = cache.assets.get('video', hls.id)!;
      expect(row.format).toBe('hls');
      expect(row.duration_ms).toBeGreaterThan(0);
      expect(row.duration_ms).not.toBe(8000);
    }
  });

  it('reads, at a start, the downloaded files whose facts came from elsewhere', async () => {
    const [output] = await finishedImages(emulator, 1, 'read me later');
    const record = await emulatorCall<ImageRecord>(emulator, 'GET', `/images/${output!.id}`);
    cache.assets.upsertFromServer(assetFieldsFromImage({ ...record, data: {} }), Date.now());
    const seq = cache.assets.get('image', output!.id)!.seq;
    // A file downloaded before schema 14: on disk, its row without facts.
    await mkdir(join(base, 'Library', 'images'), { recursive: true });
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#123' } })
      .png()
      .toFile(join(base, 'Library', 'images', 'old.png'));
    cache.assets.setLocalFile(seq, { fileState: 'downloaded', localPath: 'images/old.png', bytes: 1 });
    await library.stop();
    library = createLibrary({
      db: cache.sqlite,
      client: emulatorLibraryClient(emulator.url),
      root: () => join(base, 'Library'),
      concurrency: () => 2,
      emitDownloads: () => undefined,
      emitAssets: () => undefined,
      logError: () => undefined,
    });
    library.start();
    await until(() => cache.assets.get('image', output!.id)?.facts_from === 'file');
    expect(cache.assets.get('image', output!.id)).toMatchObject({ width: 640, height: 480, format: 'png' });
  });
});
