// Memory stays flat for big files: the downloader (its own process) streams to disk, so its
// peak resident memory hardly moves between a 16 MB and a 400 MB file.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import { openAccountDb } from '../../db/account-db.ts';
import { DownloadQueue } from './download-queue.ts';
import { blobUrl } from '../test-support/blob.ts';
import { emulatorLibraryClient } from '../test-support/emulator-client.ts';
import { runDriver } from '../test-support/run-driver.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ seed: 9 });
});
afterAll(() => emulator.close());

async function peakRssFor(bytes: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'atelier-mem-'));
  try {
    const dbFile = join(dir, 'atelier.db');
    const root = join(dir, 'Library');
    const cache = openAccountDb(dbFile);
    cache.sqlite
      .prepare(
        "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', 'big', 'generated', ?, 1, 1)",
      )
      .run(blobUrl(emulator.url, bytes, 'big'));
    new DownloadQueue({
      db: cache.sqlite,
      assets: cache.assets,
      root: () => root,
      client: emulatorLibraryClient(emulator.url),
      concurrency: () => 1,
      emit: () => undefined,
    }).enqueue([{ kind: 'image', id: 'big' }]);
    cache.close();
    const run = await runDriver({ dbFile, root, emulatorUrl: emulator.url, rss: true, timeoutMs: 120_000 });
    expect(run.lines).toContain('DONE');
    expect((await stat(join(root, 'images', 'big.jpg'))).size).toBe(bytes);
    return run.peakRss;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('download memory', () => {
  it('does not grow with the file size', async () => {
    const small = await peakRssFor(16 * 1024 * 1024);
    const large = await peakRssFor(400 * 1024 * 1024);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`peak RSS of the downloader: 16 MB file → ${mb(small)} MB, 400 MB file → ${mb(large)} MB`);
    // Buffering the file would add ~384 MB; streaming adds at most a few buffers.
    expect(large - small).toBeLessThan(64 * 1024 * 1024);
  }, 180_000);
});
