// Group commit: files finishing together share one folder fsync and one transaction; the folder
// is synced before the database says "downloaded"; a lone file is not held back; one bad row
// fails alone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountDb } from '../../db/account-db.ts';
import { DownloadsRepo, type DownloadRow } from '../../db/repos/downloads-repo.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { DownloadCommits, GATHER_MS, type FinishedFile } from './download-commits.ts';

let cache: AccountDb;
let repo: DownloadsRepo;
let synced: string[];
let fileStateAtSync: string[];
/** Rows let go, and whether each was inside the commit's transaction. */
let released: { id: number; inTransaction: boolean }[];

beforeEach(() => {
  cache = openMemoryCache();
  repo = new DownloadsRepo(cache.sqlite, 'me');
  synced = [];
  fileStateAtSync = [];
  released = [];
});
afterEach(() => cache.close());

function queued(id: string): DownloadRow {
  cache.sqlite
    .prepare(
      "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', ?, 'generated', 'http://x/y', 1, 1)",
    )
    .run(id);
  const asset = cache.assets.get('image', id)!;
  return repo.enqueue(asset.seq, 'file', `images/${id}.png`, 'http://x/y', 1);
}

function commits(othersRunning = () => false): DownloadCommits {
  return new DownloadCommits({
    db: cache.sqlite,
    assets: cache.assets,
    downloads: repo,
    now: () => 1_000,
    othersRunning,
    release: (id) => released.push({ id, inTransaction: cache.sqlite.inTransaction }),
    syncDir: async (dir) => {
      synced.push(dir);
      fileStateAtSync.push(...['a', 'b', 'c'].map((id) => cache.assets.get('image', id)?.file_state ?? '-'));
    },
  });
}

const finished = (row: DownloadRow, dir = '/lib/images'): FinishedFile => ({ row, bytes: 10, sha256: 'ab', dir });

describe('DownloadCommits', () => {
  it('commits files finishing together with one folder fsync, before the database says downloaded', async () => {
    const c = commits();
    const rows = ['a', 'b', 'c'].map(queued);
    await Promise.all(rows.map((row) => c.commit(finished(row))));
    expect(synced).toEqual(['/lib/images']);
    expect(fileStateAtSync.every((state) => state !== 'downloaded')).toBe(true);
    for (const row of rows) {
      expect(repo.get(row.id)?.state).toBe('succeeded');
      const asset = cache.assets.getBySeq(row.asset_seq)!;
      expect([asset.file_state, asset.local_path, asset.bytes, asset.sha256]).toEqual([
        'downloaded',
        row.dest,
        10,
        'ab',
      ]);
    }
    // Each claim is let go in the same transaction (one write less a file).
    expect(released).toEqual(rows.map((row) => ({ id: row.id, inTransaction: true })));
  });

  it('syncs each folder of a batch once', async () => {
    const c = commits();
    const [a, b, d] = ['a', 'b', 'c'].map(queued);
    await Promise.all([
      c.commit(finished(a!, '/lib/images')),
      c.commit(finished(b!, '/lib/videos')),
      c.commit(finished(d!, '/lib/images')),
    ]);
    expect(synced.sort()).toEqual(['/lib/images', '/lib/videos']);
  });

  it('lets a file wait for others only while transfers run', async () => {
    let others = true;
    const c = commits(() => others);
    const [a, b] = ['a', 'b'].map(queued);
    const first = c.commit(finished(a!));
    await new Promise((r) => setTimeout(r, GATHER_MS / 5));
    others = false;
    const second = c.commit(finished(b!));
    await Promise.all([first, second]);
    expect(synced).toHaveLength(1);

    synced = [];
    const lone = queued('c');
    const started = performance.now();
    await c.commit(finished(lone));
    expect(performance.now() - started).toBeLessThan(GATHER_MS);
    expect(synced).toHaveLength(1);
  });

  it('fails only the row that cannot be written', async () => {
    const c = commits();
    const [a, b] = ['a', 'b'].map(queued);
    const bad: FinishedFile = { ...finished(b!), bytes: 'many' as unknown as number };
    const results = await Promise.allSettled([c.commit(finished(a!)), c.commit(bad)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(repo.get(a!.id)?.state).toBe('succeeded');
    expect(cache.assets.getBySeq(b!.asset_seq)?.file_state).not.toBe('downloaded');
  });
});
