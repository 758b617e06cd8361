// A full disk when the library shares it with the database (the default): the downloads' part
// files fail with ENOSPC and the database's own writes with SQLITE_FULL. Nothing may escape as an
// uncaught exception (vitest fails a test on any); the queue pauses in one state with one message
// and goes on after Resume; a restart on a disk still full starts paused and says why.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import type { ImageRecord } from '../../../contract/service.ts';
import type { AccountDb } from '../../db/account-db.ts';
import { assetFieldsFromImage } from '../../api/server-records.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { DISK_FULL_MESSAGE } from './download-info.ts';
import { DownloadQueue, type DownloadQueueDeps } from './download-queue.ts';
import { emulatorLibraryClient } from '../test-support/emulator-client.ts';
import { emulatorCall, finishedImages } from '../test-support/emulator-media.ts';
import { nodePartFs, type PartFs } from './transfer.ts';

let emulator: RunningEmulator;
let root: string;
let cache: AccountDb;
let queue: DownloadQueue | null = null;
/** While true, every statement that writes fails as SQLite does on a full disk. */
let dbFull = false;
/** While true, every write to a part file fails with ENOSPC. */
let fsFull = false;

const sqliteFull = () => new Database.SqliteError('database or disk is full', 'SQLITE_FULL');

beforeAll(async () => {
  emulator = await startEmulator({ seed: 12, timeScale: 1 });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-full-'));
  cache = openMemoryCache();
  dbFull = false;
  fsFull = false;
  // Fault injection at the driver: any statement that is not a plain read throws SQLITE_FULL.
  const statementProto = Object.getPrototypeOf(cache.sqlite.prepare('SELECT 1')) as {
    run: (...a: unknown[]) => unknown;
  };
  const realRun = statementProto.run;
  statementProto.run = function (this: unknown, ...args: unknown[]) {
    if (dbFull) throw sqliteFull();
    return realRun.apply(this, args);
  };
  restoreRun = () => (statementProto.run = realRun);
});
let restoreRun = (): void => {};
afterEach(async () => {
  dbFull = false;
  await queue?.stop();
  queue = null;
  restoreRun();
  cache.close();
  await rm(root, { recursive: true, force: true });
});

const fs: PartFs = {
  ...nodePartFs,
  writer: (path, start) =>
    fsFull
      ? new Writable({
          write: (_c, _e, done) =>
            done(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })),
        })
      : nodePartFs.writer(path, start),
};

function makeQueue(extra: Partial<DownloadQueueDeps> = {}): DownloadQueue {
  queue = new DownloadQueue({
    db: cache.sqlite,
    assets: cache.assets,
    root: () => root,
    client: emulatorLibraryClient(emulator.url),
    concurrency: () => 2,
    emit: () => {},
    retryDelayMs: () => 20,
    progressIntervalMs: 20,
    fs,
    logError: () => {},
    ...extra,
  });
  queue.start();
  return queue;
}

async function addImages(count: number, prompt: string): Promise<string[]> {
  const images = await finishedImages(emulator, count, prompt);
  for (const output of images) {
    const record = await emulatorCall<ImageRecord>(emulator, 'GET', `/images/${output.id}`);
    cache.assets.upsertFromServer(assetFieldsFromImage(record), Date.now());
  }
  return images.map((i) => i.id);
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));
const state = (id: string) => cache.assets.get('image', id)?.file_state;

describe('a full disk shared by the library and the database', () => {
  it('pauses the queue (no uncaught error) when the part file and the database both run out of space', async () => {
    const ids = await addImages(2, 'both full');
    const q = makeQueue();
    fsFull = true;
    dbFull = true;
    // Enqueued while the database still had room; the transfers then hit the full disk.
    dbFull = false;
    q.enqueue(ids.map((id) => ({ kind: 'image' as const, id })));
    dbFull = true;
    await until(() => q.queueInfo().pauseReason === 'disk_full');
    expect(q.queueInfo()).toMatchObject({ state: 'paused', message: DISK_FULL_MESSAGE });
    await settle();
    // Space freed, Resume: everything lands.
    fsFull = false;
    dbFull = false;
    q.resume();
    await until(() => ids.every((id) => state(id) === 'downloaded'));
  });

  it('pauses when only the database is full (progress and commit cannot be written), then resumes', async () => {
    const ids = await addImages(2, 'db full');
    const q = makeQueue();
    q.enqueue(ids.map((id) => ({ kind: 'image' as const, id })));
    dbFull = true;
    await until(() => q.queueInfo().pauseReason === 'disk_full');
    expect(q.queueInfo().message).toBe(DISK_FULL_MESSAGE);
    await settle();
    dbFull = false;
    q.resume();
    await until(() => ids.every((id) => state(id) === 'downloaded'));
  });

  it('Resume on a database that is still full fails that one operation with the message and stays paused', async () => {
    const ids = await addImages(1, 'timer');
    const q = makeQueue({ retryDelayMs: () => 80 });
    fsFull = true;
    q.enqueue(ids.map((id) => ({ kind: 'image' as const, id })));
    await until(() => q.queueInfo().pauseReason === 'disk_full');
    fsFull = false;
    dbFull = true;
    // Its own writes fail: this one operation fails with the message, the queue stays paused.
    expect(() => q.resume()).toThrow(expect.objectContaining({ info: expect.objectContaining({ code: 'disk_full' }) }));
    await settle();
    expect(q.queueInfo().pauseReason).toBe('disk_full');
    dbFull = false;
    q.resume();
    await until(() => ids.every((id) => state(id) === 'downloaded'));
  });

  it('starts paused on a disk that is still full after a restart, and says why', async () => {
    const ids = await addImages(1, 'restart');
    let free = 1024 * 1024;
    const q = makeQueue({ freeBytes: async () => free });
    q.enqueue(ids.map((id) => ({ kind: 'image' as const, id })));
    await until(() => q.queueInfo().pauseReason === 'disk_full');
    expect(q.queueInfo().message).toBe(DISK_FULL_MESSAGE);
    await settle();
    expect(state(ids[0]!)).not.toBe('downloaded');
    free = 10 * 1024 * 1024 * 1024;
    q.resume();
    await until(() => ids.every((id) => state(id) === 'downloaded'));
  });
});
