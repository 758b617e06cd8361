// Asset rows become AssetInfo with host media URLs only for files that are really there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCache, type Cache } from './cache.ts';
import { seedAssets } from './test-support/seed-assets.ts';
import { assetToInfo } from './to-info.ts';

const mediaUrlFor = (path: string) => `media://x/${path}`;
let dir: string;
let cache: Cache;

afterEach(() => {
  cache?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('assetToInfo', () => {
  it('gives local and thumbnail URLs only for a downloaded file, never for a partial one', () => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-info-'));
    cache = openCache(join(dir, 'a.db'));
    seedAssets(cache, 3, { seed: 7 });
    const [first, second] = cache.assets.list({ filter: {}, sort: 'newest', limit: 2 }).rows;
    if (!first || !second) throw new Error('seed made no assets');
    cache.assets.setLocalFile(first.seq, {
      fileState: 'downloaded',
      localPath: 'images/a.png',
      thumbPath: '.thumbs/a.webp',
    });
    cache.assets.setLocalFile(second.seq, { fileState: 'downloading', localPath: 'images/b.png', thumbPath: null });

    const done = assetToInfo(cache.assets.getBySeq(first.seq)!, mediaUrlFor);
    expect(done.file.localUrl).toBe('media://x/images/a.png');
    expect(done.file.thumbUrl).toBe('media://x/.thumbs/a.webp');

    const partial = assetToInfo(cache.assets.getBySeq(second.seq)!, mediaUrlFor);
    expect(partial.file.localUrl).toBeNull();
    expect(partial.file.thumbUrl).toBeNull();
  });
});
