// Local copies: forgetting one leaves the asset remote and drops its finished download row in one
// go; the reconcile and thumbnail backfill lists see only downloaded assets.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageRecord } from '../../../contract/service.ts';
import type { AccountDb } from '../account-db.ts';
import { assetFieldsFromImage } from '../../api/server-records.ts';
import { openMemoryCache } from '../test-support/test-cache.ts';
import { LocalCopiesRepo } from './local-copies-repo.ts';

let cache: AccountDb;
let copies: LocalCopiesRepo;
beforeEach(() => {
  cache = openMemoryCache();
  copies = new LocalCopiesRepo(cache.sqlite, cache.assets);
});
afterEach(() => cache.close());

function downloadedImage(id: string, thumbPath: string | null): number {
  const record: ImageRecord = {
    id,
    modelID: 'imagea',
    type: 'output',
    url: `https://cdn.example.test/${id}.jpg`,
    upscaledImageID: '',
    upscaledImageURL: '',
    folderID: '',
    publicMediaID: '',
    liked: false,
    data: {},
    createdAt: '2025-06-01T10:00:00.000Z',
    updatedAt: '2025-06-01T10:00:00.000Z',
  };
  cache.assets.upsertFromServer(assetFieldsFromImage(record), 1);
  const seq = cache.assets.get('image', id)!.seq;
  cache.assets.setLocalFile(seq, { fileState: 'downloaded', localPath: `${id}.jpg`, bytes: 3, thumbPath });
  // The download engine's row (its SQL belongs to the downloads repository).
  cache.sqlite
    .prepare(
      `INSERT INTO downloads (asset_seq, url, dest, state, created_at, updated_at) VALUES (?, 'u', ?, 'succeeded', 1, 1)`,
    )
    .run(seq, `${id}.jpg`);
  return seq;
}

const downloadRows = (): number =>
  (cache.sqlite.prepare('SELECT count(*) AS n FROM downloads').get() as { n: number }).n;

describe('LocalCopiesRepo', () => {
  it('lists downloaded files, in seq order and newest first', () => {
    const plain = downloadedImage('a', null);
    const poster = downloadedImage('b', '.thumbs/remote/b.jpg');
    downloadedImage('c', '.thumbs/c.jpg');
    expect(copies.downloadedFiles(Number.MIN_SAFE_INTEGER, 10).map((f) => f.local_path)).toEqual([
      'a.jpg',
      'b.jpg',
      'c.jpg',
    ]);
    // A batch at a time, after the last seq read.
    const [first] = copies.downloadedFiles(Number.MIN_SAFE_INTEGER, 1);
    expect(copies.downloadedFiles(first!.seq, 5).map((f) => f.local_path)).toEqual(['b.jpg', 'c.jpg']);
    // Newest first (made at the same moment here, so by seq), a page at a time after the last one read.
    const newest = copies.downloadedNewestFirst(null, 2);
    expect(newest.map((row) => row.thumb_path)).toEqual(['.thumbs/c.jpg', '.thumbs/remote/b.jpg']);
    expect(copies.downloadedNewestFirst(newest.at(-1)!, 5).map((row) => row.seq)).toEqual([plain]);
    expect(copies.downloadedNewestFirst(null, 10).map((row) => row.seq)).toEqual([newest[0]!.seq, poster, plain]);
  });

  it('forgetting a copy makes the asset remote and drops its finished download', () => {
    const seq = downloadedImage('a', null);
    copies.forget(seq);
    expect(cache.assets.getBySeq(seq)).toMatchObject({ file_state: 'remote', local_path: null, bytes: null });
    expect(downloadRows()).toBe(0);
    expect(copies.downloadedFiles(Number.MIN_SAFE_INTEGER, 10)).toEqual([]);
  });

  it('marks files found gone as remote, all in one go', () => {
    const gone = [downloadedImage('a', null), downloadedImage('b', null)];
    const kept = downloadedImage('c', null);
    copies.markGone(gone);
    expect(copies.downloadedFiles(Number.MIN_SAFE_INTEGER, 10).map((f) => f.seq)).toEqual([kept]);
    for (const seq of gone)
      expect(cache.assets.getBySeq(seq)).toMatchObject({ file_state: 'remote', local_path: null });
  });
});
