// Two processes on one data folder (the app and the CLI): two connections to one database file,
// each with its own download queue. A server that ignores Range and sends slowly makes a second
// writer visible: it would truncate the shared .part file and fetch the asset again.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccountDb, type AccountDb } from '../../db/account-db.ts';
import { DownloadQueue } from './download-queue.ts';
import type { LibraryServiceClient } from '../service-port.ts';

const SIZE = 600_000;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const body = Buffer.alloc(SIZE, 0).map((_, i) => (i < 8 ? PNG_MAGIC[i]! : (i * 31 + 7) & 0xff));
const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

let dir: string;
let server: Server;
let url: string;
let gets: number;
const caches: AccountDb[] = [];
const queues: DownloadQueue[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-shared-'));
  gets = 0;
  server = createServer((req, res) => {
    gets += 1;
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(SIZE), etag: '"v1"' });
    let offset = 0;
    const send = (): void => {
      if (offset >= SIZE) return void res.end();
      res.write(body.subarray(offset, offset + 20_000));
      offset += 20_000;
      setTimeout(send, 10);
    };
    req.on('close', () => (offset = SIZE + 1));
    send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/img.png`;
});

afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()));
  caches.splice(0).forEach((c) => c.close());
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const client = {
  getImage: async () => ({ id: 'img_1', url }),
} as unknown as LibraryServiceClient;

/** One "process": its own connection to the shared database and its own queue. */
function processOnSharedFolder(): { cache: AccountDb; queue: DownloadQueue } {
  const cache = openAccountDb(join(dir, 'atelier.sqlite'));
  const queue = new DownloadQueue({
    db: cache.sqlite,
    assets: cache.assets,
    root: () => join(dir, 'Library'),
    client,
    concurrency: () => 2,
    emit: () => undefined,
    retryDelayMs: () => 20,
  });
  caches.push(cache);
  queues.push(queue);
  queue.start();
  return { cache, queue };
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function addAsset(cache: AccountDb): void {
  cache.sqlite
    .prepare(
      "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', 'img_1', 'generated', ?, 1, 1)",
    )
    .run(url);
}

const stateOf = (cache: AccountDb): string | undefined =>
  cache.sqlite.prepare<[], string>('SELECT state FROM downloads').pluck().get();

describe('downloads shared by two processes on one data folder', () => {
  it('a download one process runs is left alone by the other: one transfer, the right bytes', async () => {
    const app = processOnSharedFolder();
    addAsset(app.cache);
    app.queue.enqueue([{ kind: 'image', id: 'img_1' }]);
    await until(() => gets === 1);
    const cli = processOnSharedFolder(); // starts mid-transfer, like `atelier videos list` would
    cli.queue.poke();
    cli.queue.enqueue([{ kind: 'image', id: 'img_1' }]); // an explicit request joins the running one
    await until(() => stateOf(app.cache) === 'succeeded');
    const asset = app.cache.assets.get('image', 'img_1')!;
    expect(gets).toBe(1);
    expect(sha(await readFile(join(dir, 'Library', asset.local_path!)))).toBe(sha(body));
    expect(asset.sha256).toBe(sha(body));
    // Let go in the transaction that said succeeded: never succeeded and still claimed.
    expect(app.cache.sqlite.prepare('SELECT claimed_by FROM downloads').pluck().get()).toBeNull();
  });

  it('work left by a process that stopped is taken over by the one still running', async () => {
    const first = processOnSharedFolder();
    addAsset(first.cache);
    first.queue.enqueue([{ kind: 'image', id: 'img_1' }]);
    await until(() => gets === 1);
    const second = processOnSharedFolder();
    second.queue.poke();
    expect(gets).toBe(1);
    // The first process quits mid-transfer: its queue stops and its database closes (claims released).
    await first.queue.stop();
    first.cache.close();
    second.queue.poke();
    await until(() => stateOf(second.cache) === 'succeeded');
    const asset = second.cache.assets.get('image', 'img_1')!;
    expect(gets).toBe(2);
    expect(sha(await readFile(join(dir, 'Library', asset.local_path!)))).toBe(sha(body));
  });
});
