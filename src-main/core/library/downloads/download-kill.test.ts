// SIGKILL at random byte offsets, 20 trials: the downloader runs in a child process, is killed
// once or twice mid-transfer, and restarted until done. After every kill the database must never
// call a file downloaded unless the final file is there with the right bytes; after a restart
// every file resumes from its partial size; at the end every file has the emulator's bytes.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import { openAccountDb } from '../../db/account-db.ts';
import { DownloadQueue } from './download-queue.ts';
import { filesOf } from './download-info.ts';
import { blobUrl, expectedBlobSha256 } from '../test-support/blob.ts';
import { emulatorLibraryClient } from '../test-support/emulator-client.ts';
import { runDriver } from '../test-support/run-driver.ts';

const TRIALS = 20;
const FILES = [
  { id: 'blob-a', bytes: 1_500_000 },
  { id: 'blob-b', bytes: 2_000_000 },
  { id: 'blob-c', bytes: 2_500_000 },
];
const TOTAL = FILES.reduce((sum, f) => sum + f.bytes, 0);

let emulator: RunningEmulator;
const expected = new Map<string, string>();

beforeAll(async () => {
  emulator = await startEmulator({ seed: 5 });
  for (const f of FILES) expected.set(f.id, await expectedBlobSha256(f.bytes, f.id));
});
afterAll(() => emulator.close());

const sha = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => -1,
  );

/** The invariant checked after every kill: 'downloaded' only with the final, correct file. */
async function checkInvariant(
  dbFile: string,
  root: string,
): Promise<{ partSizes: Map<string, number>; downloaded: number }> {
  // partSizes: files not downloaded yet → size of their .part (-1 when there is none).
  const cache = openAccountDb(dbFile);
  try {
    const partSizes = new Map<string, number>();
    let downloaded = 0;
    for (const f of FILES) {
      const asset = cache.assets.get('image', f.id)!;
      if (asset.file_state === 'downloaded') {
        downloaded += 1;
        expect(asset.local_path).not.toBeNull();
        const path = join(root, asset.local_path!);
        expect(await sizeOf(path)).toBe(f.bytes);
        expect(await sha(path)).toBe(expected.get(f.id));
        expect(asset.sha256).toBe(expected.get(f.id));
      } else partSizes.set(f.id, await sizeOf(join(root, filesOf({ kind: 'image', id: f.id }).part)));
    }
    return { partSizes, downloaded };
  } finally {
    cache.close();
  }
}

describe('downloads survive SIGKILL at random points', () => {
  it(`resumes every file from its partial size and ends with the right bytes (${TRIALS} trials)`, async () => {
    const stats = {
      kills: 0,
      resumedFromPartial: 0,
      freshStarts: 0,
      committedWithoutNetwork: 0,
      downloadedAtKill: 0,
      notReachedBeforeKill: 0,
    };
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const dir = await mkdtemp(join(tmpdir(), 'atelier-kill-'));
      const dbFile = join(dir, 'atelier.db');
      const root = join(dir, 'Library');
      try {
        const cache = openAccountDb(dbFile);
        const insert = cache.sqlite.prepare(
          "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', ?, 'generated', ?, 1, 1)",
        );
        for (const f of FILES) insert.run(f.id, blobUrl(emulator.url, f.bytes, f.id));
        const seed = new DownloadQueue({
          db: cache.sqlite,
          assets: cache.assets,
          root: () => root,
          client: emulatorLibraryClient(emulator.url),
          concurrency: () => 3,
          emit: () => undefined,
        });
        seed.enqueue(FILES.map((f) => ({ kind: 'image' as const, id: f.id })));
        cache.close();

        // One or two kills at random byte offsets, then a run to completion.
        const kills = 1 + (trial % 2);
        let offset = 0;
        let partSizes = new Map<string, number>();
        for (let k = 0; k <= kills; k += 1) {
          const last = k === kills;
          offset = last ? 0 : offset + Math.floor(Math.random() * (TOTAL - offset) * 0.6) + 1;
          const run = await runDriver({
            dbFile,
            root,
            emulatorUrl: emulator.url,
            killAtBytes: last ? null : offset,
            throttleMs: 2,
          });
          // Resume check: the first request for each file starts at its partial size.
          for (const [id, size] of partSizes) {
            const first = run.requests.find((r) => r.id === id);
            if (size > 0 && first === undefined && run.killed) {
              // Killed before it asked for this file (the resumed files' progress counts from their
              // partial sizes, so a kill can come at once): the part is as it was, the next run checks it.
              stats.notReachedBeforeKill += 1;
            } else if (size > 0) {
              expect(first, `${id} had ${size} bytes; the next run must ask for the rest`).toBeDefined();
              expect(first!.start).toBe(size);
              stats.resumedFromPartial += 1;
            } else if (first === undefined) {
              stats.committedWithoutNetwork += 1; // renamed before the kill, committed on restart
            } else {
              expect(first.start).toBe(0);
              stats.freshStarts += 1;
            }
          }
          const checked = await checkInvariant(dbFile, root);
          partSizes = checked.partSizes;
          if (run.killed) {
            stats.kills += 1;
            stats.downloadedAtKill += checked.downloaded;
          } else {
            expect(run.lines).toContain('DONE');
            expect(checked.downloaded).toBe(FILES.length);
          }
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    console.log(`kill trials: ${JSON.stringify(stats)}`);
    expect(stats.kills).toBeGreaterThanOrEqual(TRIALS);
    expect(stats.resumedFromPartial).toBeGreaterThan(0);
  }, 300_000);
});
