// The library of one account against the emulator: thumbnails after downloads, removing local
// copies, deleting on the service (images only), export with sidecars, vanished files.
import { mkdtemp, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import type { AssetsChangedInfo } from '../../contract/ipc/assets.ts';
import type { ImageRecord, JobOutput, VideoRecord } from '../../contract/service.ts';
import type { AccountDb } from '../db/account-db.ts';
import { assetFieldsFromImage, assetFieldsFromVideo } from '../api/server-records.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { createLibrary, VIDEO_DELETE_REFUSED, type Library } from './library.ts';
import { emulatorLibraryClient } from './test-support/emulator-client.ts';
import { emulatorCall, finishedImages, finishedVideos } from './test-support/emulator-media.ts';

let emulator: RunningEmulator;
let base: string;
let root: string;
let cache: AccountDb;
let library: Library;
let assetEvents: AssetsChangedInfo[];

beforeAll(async () => {
  emulator = await startEmulator({ seed: 21 });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'atelier-library-'));
  root = join(base, 'Library');
  cache = openMemoryCache();
  assetEvents = [];
  library = makeLibrary();
});
afterEach(async () => {
  await library.stop();
  cache.close();
  await rm(base, { recursive: true, force: true });
});

function makeLibrary(): Library {
  return createLibrary({
    db: cache.sqlite,
    client: emulatorLibraryClient(emulator.url),
    root: () => root,
    concurrency: () => 2,
    emitDownloads: () => undefined,
    emitAssets: (change) => assetEvents.push(change),
    logError: (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
    queue: { prepareIntervalMs: 20, retryDelayMs: () => 20 },
  });
}

async function addImages(outputs: JobOutput[]) {
  for (const o of outputs)
    cache.assets.upsertFromServer(
      assetFieldsFromImage(await emulatorCall<ImageRecord>(emulator, 'GET', `/images/${o.id}`)),
      Date.now(),
    );
  return outputs.map((o) => ({ kind: 'image' as const, id: o.id }));
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const asset = (ref: { kind: 'image' | 'video'; id: string }) => cache.assets.get(ref.kind, ref.id)!;

describe('library', () => {
  it('makes a small thumbnail once a download is committed, and announces both', async () => {
    library.start();
    const refs = await addImages(await finishedImages(emulator, 1, 'thumb me'));
    library.download(refs);
    await until(() => asset(refs[0]!).thumb_path !== null);
    const row = asset(refs[0]!);
    expect(row.thumb_path).toBe(`.thumbs/${row.id}.webp`);
    const meta = await sharp(join(root, row.thumb_path!)).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(320);
    expect(assetEvents.some((e) => e.reason === 'download' && e.assets?.some((a) => a.id === row.id))).toBe(true);
  });

  it('makes the missing thumbnails of downloaded assets (none, or only the service poster) and keeps the others', async () => {
    library.start();
    const refs = await addImages(await finishedImages(emulator, 3, 'backfill me'));
    library.download(refs);
    await until(() => refs.every((ref) => asset(ref).thumb_path !== null));
    const [none, poster, own] = refs.map(asset);
    cache.sqlite.prepare('UPDATE assets SET thumb_path = NULL WHERE seq = ?').run(none!.seq);
    cache.sqlite.prepare(`UPDATE assets SET thumb_path = '.thumbs/remote/x.webp' WHERE seq = ?`).run(poster!.seq);
    await unlink(join(root, own!.thumb_path!)); // kept as recorded: only what the database lacks is made
    await library.backfillThumbnails();
    await until(() => asset(refs[0]!).thumb_path !== null && !asset(refs[1]!).thumb_path!.includes('/remote/'));
    expect(asset(refs[0]!).thumb_path).toBe(`.thumbs/${none!.id}.webp`);
    expect(asset(refs[1]!).thumb_path).toBe(`.thumbs/${poster!.id}.webp`);
    expect(asset(refs[2]!).thumb_path).toBe(own!.thumb_path);
    await expect(stat(join(root, own!.thumb_path!))).rejects.toThrow();
  });

  it('queues job outputs as downloads', async () => {
    library.start();
    const refs = await addImages(await finishedImages(emulator, 1, 'job outputs'));
    library.enqueueOutputs(refs);
    await until(() => asset(refs[0]!).file_state === 'downloaded');
  });

  it('removes the local copy only: database first, then the file; the asset stays', async () => {
    library.start();
    const refs = await addImages(await finishedImages(emulator, 1, 'remove me'));
    library.download(refs);
    await until(() => asset(refs[0]!).file_state === 'downloaded');
    const path = join(root, asset(refs[0]!).local_path!);
    const result = await library.removeLocal(refs);
    expect(result.removed).toEqual(refs);
    expect(asset(refs[0]!)).toMatchObject({ file_state: 'remote', local_path: null });
    await expect(stat(path)).rejects.toThrow();
    // It can be downloaded again.
    library.download(refs);
    await until(() => asset(refs[0]!).file_state === 'downloaded');
  });

  it('deletes images on the service and refuses videos with the reason', async () => {
    library.start();
    const refs = await addImages(await finishedImages(emulator, 1, 'delete me'));
    const videos = await finishedVideos(emulator, 1, 'keep me');
    for (const v of videos)
      cache.assets.upsertFromServer(
        assetFieldsFromVideo(await emulatorCall<VideoRecord>(emulator, 'GET', `/videos/${v.id}`)),
        Date.now(),
      );
    const video = { kind: 'video' as const, id: videos[0]!.id };
    const result = await library.deleteRemote([...refs, video]);
    expect(result.deleted).toEqual(refs);
    expect(result.refused).toEqual([{ asset: video, reason: VIDEO_DELETE_REFUSED }]);
    await expect(emulatorCall(emulator, 'GET', `/images/${refs[0]!.id}`)).rejects.toThrow();
    // Without a local copy the asset leaves the cache.
    expect(cache.assets.get('image', refs[0]!.id)).toBeUndefined();
  });

  it('exports files with a JSON sidecar of how they were made, never overwriting', async () => {
    library.start();
    const refs = await addImages(await finishedImages(emulator, 2, 'export me'));
    cache.assets.recordGeneration('image', refs[0]!.id, {
      prompt: 'export me',
      params: { modelID: 'imagea', prompt: 'export me' },
      jobId: 'job-1',
    });
    library.download([refs[0]!]);
    await until(() => asset(refs[0]!).file_state === 'downloaded');
    const to = join(base, 'Export');
    const first = await library.exportTo(refs, to);
    expect(first.exported).toBe(1);
    expect(first.skipped).toEqual([{ asset: refs[1], reason: 'Not downloaded yet; download it first.' }]);
    const sidecar = JSON.parse(await readFile(join(to, `${refs[0]!.id}.json`), 'utf8'));
    expect(sidecar).toMatchObject({
      kind: 'image',
      id: refs[0]!.id,
      prompt: 'export me',
      params: { modelID: 'imagea' },
      jobId: 'job-1',
      file: `${refs[0]!.id}.jpg`,
    });
    expect(JSON.stringify(sidecar)).not.toContain('/media/');
    await library.exportTo([refs[0]!], to);
    expect((await readdir(to)).sort()).toEqual(
      [`${refs[0]!.id}-2.jpg`, `${refs[0]!.id}-2.json`, `${refs[0]!.id}.jpg`, `${refs[0]!.id}.json`].sort(),
    );
    await expect(library.exportTo(refs, join(root, 'inside'))).rejects.toThrow(/outside the library/);
  });

  it('notices files deleted behind its back at start', async () => {
    library.start();
    const refs = await addImages(await finishedImages(emulator, 1, 'vanish'));
    library.download(refs);
    await until(() => asset(refs[0]!).file_state === 'downloaded');
    await library.stop();
    await unlink(join(root, asset(refs[0]!).local_path!));
    library = makeLibrary();
    library.start();
    await until(() => asset(refs[0]!).file_state === 'remote');
  });

  it('serves its files and refuses everything else', async () => {
    library.start();
    const refs = await addImages(await finishedImages(emulator, 1, 'serve'));
    library.download(refs);
    await until(() => asset(refs[0]!).file_state === 'downloaded');
    const reply = await library.serve({ path: asset(refs[0]!).local_path!, rangeHeader: 'bytes=0-9' });
    expect(reply.status).toBe(206);
    expect(reply.headers['Content-Type']).toBe('image/jpeg');
    reply.body?.destroy();
    expect((await library.serve({ path: '../../etc/passwd' })).status).toBe(404);
  });
});
