// Ratings travel with the files: a library's marked images (PNG, JPEG, WebP) and a video are exported
// the way the library exports them (each image's XMP, every sidecar), then imported into a fresh
// database of the same account through the real dispatcher: the stars and flags come back, by id;
// files naming other items, damaged, too large, not images or not JSON are reported by name and
// reason, and nothing else changes.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMarksSidecar } from '../../contract/file-marks.ts';
import type { MarksImportInfo } from '../../contract/ipc/library.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { AssetRow } from '../db/repos/asset-row.ts';
import { seedAssets } from '../db/test-support/seed-assets.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { createDispatcher, type Dispatch, type Handlers } from '../dispatch.ts';
import { createEventBus } from '../events.ts';
import { marksOfAsset } from '../library/folder/asset-marks.ts';
import { exportAssets } from '../library/folder/library-export.ts';
import { embedForExport } from '../library/media/embed-settings.ts';
import { marksImportHandlers } from './marks-import.ts';
import { answered } from '../test-support/dispatch-results.ts';

let base: string;
let root: string;
let out: string;
let source: AccountDb;
let fresh: AccountDb;
let dispatch: Dispatch;
const SEED = { seed: 9 };

const marksOf = (cache: AccountDb) =>
  cache.sqlite
    .prepare('SELECT kind, id, rating, flag FROM assets WHERE rating > 0 OR flag IS NOT NULL ORDER BY id')
    .all();

async function picture(format: 'png' | 'jpeg' | 'webp'): Promise<Buffer> {
  const image = sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 30, g: 120, b: 200 } } });
  return format === 'png'
    ? image.png().toBuffer()
    : format === 'jpeg'
      ? image.jpeg().toBuffer()
      : image.webp().toBuffer();
}

/** Gives a seeded downloaded asset a real file at `images/<id>.<ext>` (or its video path). */
function placeFile(cache: AccountDb, asset: AssetRow, ext: string, bytes: Buffer): void {
  const path = `${asset.kind}s/${asset.id}.${ext}`;
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), bytes);
  cache.sqlite
    .prepare("UPDATE assets SET file_state = 'downloaded', local_path = ? WHERE seq = ?")
    .run(path, asset.seq);
}

const value = <T>(channel: string, args?: unknown) => answered<T>(dispatch, channel, args);

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'atelier-marks-'));
  root = join(base, 'Library');
  out = join(base, 'export');
  source = openMemoryCache();
  seedAssets(source, 80, SEED);
  const all = source.sqlite.prepare('SELECT seq FROM assets ORDER BY seq').all() as { seq: number }[];
  const rows = all.map(({ seq }) => source.assets.getBySeq(seq) as AssetRow);
  const images = rows.filter((row) => row.kind === 'image' && row.origin === 'generated').slice(0, 3);
  const video = rows.find((row) => row.kind === 'video');
  if (images.length < 3 || !video) throw new Error('the seed has too few assets');
  const [png, jpeg, webp] = images as [AssetRow, AssetRow, AssetRow];
  placeFile(source, png, 'png', await picture('png'));
  placeFile(source, jpeg, 'jpg', await picture('jpeg'));
  placeFile(source, webp, 'webp', await picture('webp'));
  placeFile(source, video, 'mp4', Buffer.from('\u0000\u0000\u0000\u0018ftypmp42 not really a video'));
  source.marks.setMarks([png.seq], { rating: 5, flag: 'pick' });
  source.marks.setMarks([jpeg.seq], { rating: 2, flag: 'reject' });
  source.marks.setMarks([webp.seq], { rating: 3 });
  source.marks.setMarks([video.seq], { rating: 1, flag: 'reject' });
  // Exported as the library exports (library.ts exportTo): images through embedForExport, every sidecar.
  const exported = [png, jpeg, webp, video].map((row) => ({
    ref: { kind: row.kind, id: row.id },
    asset: source.assets.getBySeq(row.seq),
  }));
  const result = await exportAssets(root, exported, out, (bytes, asset) =>
    embedForExport(bytes, asset, marksOfAsset(asset)),
  );
  expect(result).toMatchObject({ exported: 4, skipped: [] });

  fresh = openMemoryCache();
  seedAssets(fresh, 80, SEED);
  const events = createEventBus();
  dispatch = createDispatcher(marksImportHandlers({ cache: () => fresh, events }) as unknown as Handlers, (c, e) => {
    throw new Error(`${c}: ${String(e)}`);
  });
});

afterAll(() => {
  source.close();
  fresh.close();
  rmSync(base, { recursive: true, force: true });
});

describe('export, then library:import-marks into a fresh database', () => {
  it('writes the marks into every sidecar, exactly as the library has them', () => {
    const sidecars = (
      source.sqlite.prepare('SELECT seq FROM assets WHERE rating > 0 ORDER BY seq').all() as { seq: number }[]
    ).map(({ seq }) => source.assets.getBySeq(seq) as AssetRow);
    for (const asset of sidecars) {
      const json = JSON.parse(readFileSync(join(out, `${asset.id}.json`), 'utf8')) as { file: string; sha256: string };
      expect(readMarksSidecar(json)).toEqual(marksOfAsset(asset));
      // An image's sidecar describes the exported file (its XMP added), not the library's copy.
      if (asset.kind !== 'image') continue;
      const file = readFileSync(join(out, json.file));
      expect(json.sha256).toBe(createHash('sha256').update(file).digest('hex'));
    }
  });

  it('restores every rating and flag by id; a second import changes nothing', async () => {
    expect(marksOf(fresh)).toEqual([]);
    const first = await value<MarksImportInfo>('library:import-marks', { from: out });
    expect(first).toMatchObject({ found: 4, restored: 4, unchanged: 0, unmatchedTotal: 0, skippedTotal: 0 });
    expect(marksOf(fresh)).toEqual(marksOf(source));
    expect(marksOf(fresh)).toHaveLength(4);
    const again = await value<MarksImportInfo>('library:import-marks', { from: out });
    expect(again).toMatchObject({ restored: 0, unchanged: 4 });
  });

  it('the file wins over the library', async () => {
    const [one] = marksOf(fresh) as { kind: 'image' | 'video'; id: string }[];
    const seq = fresh.assets.seqsOf([one as { kind: 'image'; id: string }]);
    fresh.marks.setMarks(seq, { rating: 0, flag: null });
    const result = await value<MarksImportInfo>('library:import-marks', { from: out });
    expect(result).toMatchObject({ restored: 1, unchanged: 3 });
    expect(marksOf(fresh)).toEqual(marksOf(source));
  });

  it('names files it could not use, says why, and changes nothing else', async () => {
    const bad = join(base, 'bad');
    mkdirSync(join(bad, 'Coastlines'), { recursive: true });
    const png = await picture('png');
    writeFileSync(join(bad, 'cut.png'), png.subarray(0, 60));
    const jpeg = await picture('jpeg');
    writeFileSync(join(bad, 'cut.jpg'), jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    writeFileSync(join(bad, 'notes.png'), 'these are notes, not a picture');
    writeFileSync(join(bad, 'broken.json'), '{"kind": "image", "id": ');
    writeFileSync(
      join(bad, 'Coastlines', 'other.json'),
      JSON.stringify({ kind: 'image', id: 'img_elsewhere', rating: 3 }),
    );
    writeFileSync(join(bad, 'old.json'), JSON.stringify({ kind: 'image', id: 'img_x', prompt: 'exported long ago' }));
    writeFileSync(join(bad, 'huge.webp'), '');
    truncateSync(join(bad, 'huge.webp'), 300 * 1024 * 1024);
    const before = marksOf(fresh);
    const result = await value<MarksImportInfo>('library:import-marks', { from: bad });
    expect(result.restored).toBe(0);
    expect(Object.fromEntries(result.skipped.map((s) => [s.file, s.reason]))).toEqual({
      'broken.json': 'The sidecar is not valid JSON (damaged or cut short).',
      'cut.jpg': expect.stringMatching(/^The image is damaged or cut short/),
      'cut.png': expect.stringMatching(/^The image is damaged or cut short/),
      'huge.webp': 'The image is too large (300 MB; at most 256 MB).',
      'notes.png': 'It is not a PNG, JPEG or WebP image.',
    });
    expect(Object.fromEntries(result.unmatched.map((s) => [s.file, s.reason]))).toEqual({
      [join('Coastlines', 'other.json')]: 'The item it names is not in this library.',
      'old.json': 'It carries no rating or flag (exported before ratings existed).',
    });
    expect(marksOf(fresh)).toEqual(before);
  });

  it('refuses a folder that is not there, in words', async () => {
    const result = await dispatch('library:import-marks', { from: join(base, 'nowhere') });
    expect(result).toMatchObject({ ok: false, error: { message: `There is no folder at ${join(base, 'nowhere')}.` } });
  });
});
