// Asset rows become AssetInfo with host media URLs only for files that are really there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAccountDb, type AccountDb } from '../db/account-db.ts';
import { seedAssets } from '../db/test-support/seed-assets.ts';
import { posterLinkVideoId, remotePosterLink } from '../host/poster-links.ts';
import { assetToInfo } from './to-info.ts';

const mediaUrlFor = (path: string) => `media://x/${path}`;
let dir: string;
let cache: AccountDb;

afterEach(() => {
  cache?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('assetToInfo', () => {
  it('gives local and thumbnail URLs only for a downloaded file, never for a partial one', () => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-info-'));
    cache = openAccountDb(join(dir, 'a.db'));
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

  it('gives a video not downloaded yet a poster link the library answers, and only such a video', () => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-info-'));
    cache = openAccountDb(join(dir, 'a.db'));
    const insert = cache.sqlite.prepare(
      "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES (?, ?, 'generated', ?, 1, 1)",
    );
    for (const id of ['vid_remote', 'vid_done', 'vid_gone', 'vid_posted', 'vid_nolink'])
      insert.run('video', id, id === 'vid_nolink' ? null : `https://media.example/${id}.m3u8`);
    insert.run('image', 'img_remote', 'https://media.example/a.png');
    const seq = (kind: 'image' | 'video', id: string) => cache.assets.get(kind, id)!.seq;
    cache.assets.setLocalFile(seq('video', 'vid_done'), { fileState: 'downloaded', localPath: 'videos/vid_done.mp4' });
    cache.assets.setLocalFile(seq('video', 'vid_posted'), {
      fileState: 'remote',
      thumbPath: '.thumbs/remote/vid_posted.webp',
    });
    cache.sqlite.prepare("UPDATE assets SET remote_state = 'gone' WHERE id = 'vid_gone'").run();
    const info = (kind: 'image' | 'video', id: string) => assetToInfo(cache.assets.get(kind, id)!, mediaUrlFor);

    const remote = info('video', 'vid_remote');
    expect(remote.file.thumbPath).toBeNull();
    expect(remote.file.thumbUrl).toBe(`media://x/${remotePosterLink('vid_remote')}`);
    expect(posterLinkVideoId(remotePosterLink('vid_remote'))).toBe('vid_remote');
    expect(info('video', 'vid_posted').file.thumbUrl).toBe('media://x/.thumbs/remote/vid_posted.webp');
    // Downloaded (its own poster comes with the file), gone from the service, no link, an image: none.
    for (const [kind, id] of [
      ['video', 'vid_done'],
      ['video', 'vid_gone'],
      ['video', 'vid_nolink'],
      ['image', 'img_remote'],
    ] as const)
      expect(info(kind, id).file.thumbUrl, id).toBeNull();
  });
});

describe('poster links', () => {
  it('carry any id as one safe path segment and read back only what they made', () => {
    for (const id of ['vid_1', '../../etc/passwd', 'a/b', '..', 'vidéo ✓', 'x'.repeat(300)]) {
      const link = remotePosterLink(id);
      expect(link).toMatch(/^\.posters\/video\/[A-Za-z0-9_-]+\.webp$/);
      expect(posterLinkVideoId(link)).toBe(id);
    }
    for (const path of [
      '.posters/video/.webp',
      '.posters/video/dmlk.png',
      '.posters/image/dmlkXzE.webp',
      'Demo/.posters/video/dmlkXzE.webp',
      '.thumbs/vid_1.webp',
      // Not the canonical form of any id (trailing bits set).
      '.posters/video/dmlkXzF.webp',
    ])
      expect(posterLinkVideoId(path), path).toBeNull();
  });
});
