import { describe, expect, it } from 'vitest';
import type { AssetView } from '../asset-view.ts';
import { showLines } from './show.ts';

const view = (over: Partial<AssetView>): AssetView => ({
  kind: 'image',
  id: 'img_1',
  origin: 'generated',
  modelId: 'imagea',
  type: 'output',
  url: null,
  hls: false,
  upscaledImageId: null,
  upscaledImageUrl: null,
  sourceAssetId: null,
  folderId: null,
  publicMediaId: null,
  liked: false,
  favorite: false,
  rating: 0,
  flag: null,
  uploadName: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  jobId: null,
  prompt: 'a lighthouse',
  preset: null,
  params: null,
  frames: null,
  width: 1024,
  height: 1024,
  durationMs: null,
  format: 'png',
  factsFrom: 'file',
  file: { state: 'downloaded', path: 'images/img_1.png', thumbPath: null, localUrl: null, thumbUrl: null, bytes: 1234 },
  removedFromService: false,
  path: '/lib/images/img_1.png',
  ...over,
});

describe('atelier show', () => {
  it('says a downloaded image’s size, format and bytes on disk, read from its file', () => {
    const lines = showLines(view({}));
    expect(lines).toContain('Dimensions: 1024 × 1024');
    expect(lines).toContain('Format:     PNG');
    expect(lines).toContain('On disk:    1234 bytes');
    expect(lines).toContain('Facts:      read from the file');
    expect(lines).toContain('File:       /lib/images/img_1.png');
  });

  it('says a video’s frame size and length, and when they are only what was asked for', () => {
    const lines = showLines(
      view({
        kind: 'video',
        id: 'vid_1',
        width: 1280,
        height: 720,
        durationMs: 8000,
        format: null,
        factsFrom: 'request',
        file: { state: 'remote', path: null, thumbPath: null, localUrl: null, thumbUrl: null, bytes: null },
        path: null,
      }),
    );
    expect(lines[0]).toBe('Video vid_1');
    expect(lines).toContain('Frame size: 1280 × 720');
    expect(lines).toContain('Length:     8 s');
    expect(lines).toContain('Facts:      as requested (the file is not read yet)');
    expect(lines).toContain('File:       remote');
    expect(lines.some((l) => l.startsWith('On disk'))).toBe(false);
  });
});
