// A media answer with no Content-Length that never ends is bounded: the disk check stops it before
// the library's disk goes below the free-space floor (the queue pauses, the row stays queued, the
// part stays), and a slow one without a validator cannot restart for ever (each attempt starts over,
// so it is no progress: it runs out of attempts). The per-file maximum and the stall are covered by
// media-limits.test.ts.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import type { AccountDb } from '../../db/account-db.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { DISK_FULL_MESSAGE } from './download-info.ts';
import { DownloadQueue, type DownloadQueueDeps } from './download-queue.ts';
import { MAX_ATTEMPTS } from './download-retries.ts';
import { MIN_FREE_BYTES } from './download-space.ts';
import { fetchMedia, type MediaFetch } from '../media/media-http.ts';
import { emulatorLibraryClient } from '../test-support/emulator-client.ts';

let emulator: RunningEmulator;
let root: string;
let cache: AccountDb;
let queue: DownloadQueue | null = null;
let server: Server | null = null;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 13, timeScale: 1 });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-endless-'));
  cache = openMemoryCache();
});
afterEach(async () => {
  await queue?.stop();
  queue = null;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
  cache.close();
  await rm(root, { recursive: true, force: true });
});

/** A media host answering every request with 200, no Content-Length, no ETag: `send` writes the body. */
async function hostile(send: (res: ServerResponse) => void): Promise<MediaFetch> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    send(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/endless.png`;
  return (_url, headers, signal) => fetchMedia(url, headers, signal);
}

function makeQueue(extra: Partial<DownloadQueueDeps>): DownloadQueue {
  cache.sqlite
    .prepare(
      "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', 'endless', 'generated', ?, 1, 1)",
    )
    .run(`${emulator.url}/media/blob/1?seed=endless`);
  queue = new DownloadQueue({
    db: cache.sqlite,
    assets: cache.assets,
    root: () => root,
    client: emulatorLibraryClient(emulator.url),
    concurrency: () => 2,
    emit: () => {},
    retryDelayMs: () => 20,
    progressIntervalMs: 20,
    logError: () => {},
    ...extra,
  });
  queue.start();
  queue.enqueue([{ kind: 'image', id: 'endless' }]);
  return queue;
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      total += await stat(join(entry.parentPath, entry.name)).then(
        (s) => s.size,
        () => 0,
      );
  }
  return total;
}

describe('a body with no Content-Length that never ends', () => {
  it('is stopped by the disk check before the disk goes below the floor: queue paused, row queued, part kept', async () => {
    let sent = 0;
    const fetch = await hostile((res) => {
      const chunk = Buffer.alloc(64 * 1024, 7);
      // "Endless": far more than the disk below allows (a bound only so the old code ends at all).
      const pump = (): void => {
        while (!res.destroyed && sent < 1024 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    // A disk with 40 MB above the floor: what the library writes comes off it.
    const budget = MIN_FREE_BYTES + 40 * 1024 * 1024;
    const q = makeQueue({ fetch, freeBytes: async () => budget - (await bytesUnder(root)) });
    await until(() => q.queueInfo().pauseReason === 'disk_full', 15_000);
    expect(q.queueInfo()).toMatchObject({ state: 'paused', message: DISK_FULL_MESSAGE });
    await q.stop();
    const row = q.list().items[0];
    expect(row).toMatchObject({ state: 'queued', error: expect.objectContaining({ code: 'disk_full' }) });
    expect(cache.assets.get('image', 'endless')?.file_state).toBe('queued');
    // Stopped within one look (16 MB) past the floor; the part stays where it was.
    const written = await bytesUnder(root);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(40 * 1024 * 1024 + 17 * 1024 * 1024);
    expect(sent).toBeLessThan(200 * 1024 * 1024);
  });

  it('a slow one without a validator is no progress: each attempt starts over, and it gives up after the attempts', async () => {
    let requests = 0;
    const fetch = await hostile((res) => {
      requests += 1;
      // Fast enough never to count as a stall, never ending.
      const timer = setInterval(
        () => (res.destroyed ? clearInterval(timer) : res.write(Buffer.alloc(32 * 1024, 3))),
        5,
      );
      res.on('close', () => clearInterval(timer));
    });
    const q = makeQueue({ fetch, limits: { deadlineMs: 150, stallMs: 60_000 } });
    await until(() => q.list().items[0]?.state === 'failed', 15_000);
    const row = q.list().items[0];
    expect(row?.error?.message).toMatch(new RegExp(`gave up after ${MAX_ATTEMPTS} tries`));
    expect(requests).toBe(MAX_ATTEMPTS);
  });
});
