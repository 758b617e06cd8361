// The trash on disk with real files in a temporary library: a removal is a rename into `.trash`
// (the same inode, no copy), a restore puts it back as downloaded, a purge goes by age on an
// injected clock, a rename that fails leaves everything as it was, and the start-up check settles
// a crash at each step of a move.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../contract/errors.ts';
import { TRASH_KEEP_DAYS } from '../../../contract/ipc/trash.ts';
import type { AccountDb } from '../../db/account-db.ts';
import { LocalCopiesRepo } from '../../db/repos/local-copies-repo.ts';
import { TrashRepo } from '../../db/repos/trash-repo.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { createTrashBin, type TrashBin } from './trash-bin.ts';

const DAY = 24 * 60 * 60 * 1000;
let cache: AccountDb;
let trash: TrashRepo;
let base: string;
let root: string;
let clock: number;

const binFor = (area = ''): TrashBin =>
  createTrashBin({
    trash,
    copies: new LocalCopiesRepo(cache.sqlite, cache.assets),
    assets: cache.assets,
    root: () => root,
    area,
    now: () => clock,
  });

beforeEach(async () => {
  cache = openMemoryCache();
  trash = new TrashRepo(cache.sqlite, cache.assets);
  base = await mkdtemp(join(tmpdir(), 'atelier-trash-'));
  root = join(base, 'Library');
  await mkdir(join(root, 'images'), { recursive: true });
  clock = Date.UTC(2026, 10, 1);
});
afterEach(async () => {
  cache.close();
  await rm(base, { recursive: true, force: true });
});

/** A downloaded image with its file in the library. */
async function downloaded(id: string, path = `images/${id}.png`, body = `png of ${id}`) {
  cache.sqlite
    .prepare(
      `INSERT INTO assets (kind, id, origin, type, url, created_at, local_created_at, file_state, local_path, bytes, sha256, thumb_path)
       VALUES ('image', ?, 'generated', 'output', 'https://media.example.test/x.png', 1, 1, 'downloaded', ?, ?, ?, ?)`,
    )
    .run(id, path, body.length, `sha-${id}`, `.thumbs/${id}.webp`);
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), body);
  const row = cache.assets.get('image', id);
  if (!row) throw new Error('not inserted');
  return row;
}

const asset = (id: string) => cache.assets.get('image', id);
const there = (relative: string) =>
  stat(join(root, relative)).then(
    () => true,
    () => false,
  );

describe('the trash bin', () => {
  it('moves a copy into .trash by a rename: the asset reads as remote, the row says where it was', async () => {
    const row = await downloaded('img_1');
    const inode = (await stat(join(root, 'images/img_1.png'))).ino;
    expect(await binFor().put(row)).toBe(true);

    expect(await there('images/img_1.png')).toBe(false);
    expect((await stat(join(root, '.trash/images/img_1.png'))).ino).toBe(inode);
    expect(asset('img_1')).toMatchObject({ file_state: 'remote', local_path: null, bytes: null, sha256: null });
    // The thumbnail stays with the asset, as it did before the trash.
    expect(asset('img_1')?.thumb_path).toBe('.thumbs/img_1.webp');
    expect(trash.get(row.seq)).toEqual({
      asset_seq: row.seq,
      original_path: 'images/img_1.png',
      trash_path: '.trash/images/img_1.png',
      bytes: 'png of img_1'.length,
      sha256: 'sha-img_1',
      trashed_at: clock,
    });
    expect(trash.totals()).toEqual({ count: 1, bytes: 'png of img_1'.length });
  });

  it("keeps an account's trash inside its own area (the demo's in Demo/.trash)", async () => {
    const row = await downloaded('img_d', 'Demo/images/img_d.png');
    await binFor('Demo').put(row);
    expect(await there('Demo/.trash/images/img_d.png')).toBe(true);
    expect(trash.get(row.seq)?.trash_path).toBe('Demo/.trash/images/img_d.png');
  });

  it('moves an HLS copy as its whole folder', async () => {
    const row = await downloaded('vid_1', 'images/vid_1.hls/index.m3u8', '#EXTM3U');
    await writeFile(join(root, 'images/vid_1.hls/seg0.ts'), 'segment');
    await binFor().put(row);
    expect(await there('images/vid_1.hls')).toBe(false);
    expect(await readFile(join(root, '.trash/images/vid_1.hls/seg0.ts'), 'utf8')).toBe('segment');
    await binFor().restore(trash.get(row.seq)!);
    expect(await readFile(join(root, 'images/vid_1.hls/seg0.ts'), 'utf8')).toBe('segment');
    expect(asset('vid_1')).toMatchObject({ file_state: 'downloaded', local_path: 'images/vid_1.hls/index.m3u8' });
  });

  it('restores a copy where it was, downloaded again with its size and digest', async () => {
    const row = await downloaded('img_1');
    const bin = binFor();
    await bin.put(row);
    expect(await bin.restore(trash.get(row.seq)!)).toBe('restored');
    expect(await readFile(join(root, 'images/img_1.png'), 'utf8')).toBe('png of img_1');
    expect(await there('.trash/images/img_1.png')).toBe(false);
    expect(asset('img_1')).toMatchObject({
      file_state: 'downloaded',
      local_path: 'images/img_1.png',
      bytes: 'png of img_1'.length,
      sha256: 'sha-img_1',
      thumb_path: '.thumbs/img_1.webp',
    });
    expect(trash.totals()).toEqual({ count: 0, bytes: 0 });
  });

  it('restoring a copy downloaded again meanwhile keeps the new one and drops the entry', async () => {
    const row = await downloaded('img_1');
    const bin = binFor();
    await bin.put(row);
    await writeFile(join(root, 'images/img_1.png'), 'the new download');
    cache.assets.setLocalFile(row.seq, { fileState: 'downloaded', localPath: 'images/img_1.png', bytes: 16 });
    expect(await bin.restore(trash.get(row.seq)!)).toBe('already-local');
    expect(await readFile(join(root, 'images/img_1.png'), 'utf8')).toBe('the new download');
    expect(await there('.trash/images/img_1.png')).toBe(false);
    expect(trash.get(row.seq)).toBeUndefined();
  });

  it('a rename that fails leaves the file and the asset as they were, with the reason', async () => {
    const row = await downloaded('img_1');
    // `.trash/images` is a file: the folder the copy would go to cannot be made.
    await mkdir(join(root, '.trash'));
    await writeFile(join(root, '.trash/images'), 'in the way');
    const error = await binFor()
      .put(row)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).info.message).toMatch(/^Could not move image img_1 to the trash: .+ Its file stays/);
    expect(await readFile(join(root, 'images/img_1.png'), 'utf8')).toBe('png of img_1');
    expect(asset('img_1')).toMatchObject({ file_state: 'downloaded', local_path: 'images/img_1.png' });
    expect(trash.get(row.seq)).toBeUndefined();
  });

  it(`purges entries older than ${TRASH_KEEP_DAYS} days by the injected clock, and only those`, async () => {
    const bin = binFor();
    await bin.put(await downloaded('img_old'));
    clock += 10 * DAY;
    await bin.put(await downloaded('img_new'));
    clock += (TRASH_KEEP_DAYS - 10) * DAY - 1;
    expect(await bin.purgeExpired()).toEqual([]);
    clock += 1;
    expect((await bin.purgeExpired()).map((row) => row.id)).toEqual(['img_old']);
    expect(await there('.trash/images/img_old.png')).toBe(false);
    expect(await there('.trash/images/img_new.png')).toBe(true);
    expect(trash.entries().map((row) => row.id)).toEqual(['img_new']);
    // The asset stays in the library (it is on the service), without a local copy.
    expect(asset('img_old')?.file_state).toBe('remote');
  });

  it('empties chosen entries for good and says how many bytes went', async () => {
    const bin = binFor();
    await bin.put(await downloaded('img_1'));
    await bin.put(await downloaded('img_2'));
    const one = trash.entries().filter((row) => row.id === 'img_1');
    expect(await bin.empty(one)).toBe('png of img_1'.length);
    expect(await there('.trash/images/img_1.png')).toBe(false);
    expect(await there('.trash/images/img_2.png')).toBe(true);
    expect(trash.totals().count).toBe(1);
  });

  describe('the start-up check after a crash', () => {
    it('between the row and the rename: the row goes, the copy stays downloaded', async () => {
      const row = await downloaded('img_1');
      trash.add({
        asset_seq: row.seq,
        original_path: 'images/img_1.png',
        trash_path: '.trash/images/img_1.png',
        bytes: 12,
        sha256: null,
        trashed_at: clock,
      });
      const { forgotten, changed } = await binFor().reconcile();
      expect(changed).toBe(true);
      expect(forgotten).toEqual([]);
      expect(trash.get(row.seq)).toBeUndefined();
      expect(asset('img_1')).toMatchObject({ file_state: 'downloaded', local_path: 'images/img_1.png' });
      expect(await there('images/img_1.png')).toBe(true);
    });

    it('between the rename and the commit: the asset forgets the copy, the entry stays restorable', async () => {
      const row = await downloaded('img_1');
      trash.add({
        asset_seq: row.seq,
        original_path: 'images/img_1.png',
        trash_path: '.trash/images/img_1.png',
        bytes: 12,
        sha256: 'sha-img_1',
        trashed_at: clock,
      });
      await mkdir(join(root, '.trash/images'), { recursive: true });
      await writeFile(join(root, '.trash/images/img_1.png'), 'png of img_1');
      await rm(join(root, 'images/img_1.png'));
      const bin = binFor();
      const { forgotten } = await bin.reconcile();
      expect(forgotten.map((a) => a.id)).toEqual(['img_1']);
      expect(asset('img_1')?.file_state).toBe('remote');
      expect(await bin.restore(trash.get(row.seq)!)).toBe('restored');
      expect(asset('img_1')?.file_state).toBe('downloaded');
    });

    it('removes files in .trash that no row names, and keeps those a row names', async () => {
      const bin = binFor();
      await bin.put(await downloaded('img_1'));
      await mkdir(join(root, '.trash/images/stray.hls'), { recursive: true });
      await writeFile(join(root, '.trash/images/orphan.png'), 'no row');
      await writeFile(join(root, '.trash/images/stray.hls/index.m3u8'), '#EXTM3U');
      const { changed } = await bin.reconcile();
      expect(changed).toBe(true);
      expect(await there('.trash/images/orphan.png')).toBe(false);
      expect(await there('.trash/images/stray.hls')).toBe(false);
      expect(await there('.trash/images/img_1.png')).toBe(true);
    });

    it("leaves another area's trash alone (the demo's is its own)", async () => {
      await mkdir(join(root, 'Demo/.trash/images'), { recursive: true });
      await writeFile(join(root, 'Demo/.trash/images/theirs.png'), 'demo');
      await binFor('').reconcile();
      expect(await there('Demo/.trash/images/theirs.png')).toBe(true);
    });
  });
});
