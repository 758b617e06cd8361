import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageRecord, VideoRecord } from '../../../contract/service.ts';
import { shapeCode } from '../../../contract/shape-code.ts';
import type { AccountDb } from '../account-db.ts';
import { assetFieldsFromImage, assetFieldsFromVideo } from '../../api/server-records.ts';
import { openMemoryCache } from '../test-support/test-cache.ts';

let cache: AccountDb;
beforeEach(() => {
  cache = openMemoryCache();
});
afterEach(() => cache.close());

const image = (overrides: Partial<ImageRecord> = {}): ImageRecord => ({
  id: 'img-1',
  modelID: 'imagea',
  type: 'output',
  url: 'https://cdn.example.test/img-1.jpg',
  upscaledImageID: '',
  upscaledImageURL: '',
  folderID: '',
  publicMediaID: '',
  liked: false,
  data: {
    prompt: 'a lighthouse at dawn',
    preset: 'cinematic',
    width: 1024,
    height: 768,
    request: { modelID: 'imagea', prompt: 'a lighthouse at dawn' },
  },
  createdAt: '2025-06-01T10:00:00.000Z',
  updatedAt: '2025-06-01T10:00:00.000Z',
  ...overrides,
});

describe('AssetsRepo.upsertFromServer', () => {
  it('inserts, then reports an identical record as unchanged and a changed one as updated', () => {
    expect(cache.assets.upsertFromServer(assetFieldsFromImage(image()), 1)).toBe('inserted');
    expect(cache.assets.upsertFromServer(assetFieldsFromImage(image()), 2)).toBe('unchanged');
    expect(cache.assets.upsertFromServer(assetFieldsFromImage(image({ liked: true })), 3)).toBe('updated');
    const row = cache.assets.get('image', 'img-1');
    expect(row).toMatchObject({
      kind: 'image',
      origin: 'generated',
      model_id: 'imagea',
      liked: 1,
      created_at: Date.parse('2025-06-01T10:00:00.000Z'),
      upscaled_image_id: null,
      prompt: 'a lighthouse at dawn',
      preset: 'cinematic',
      width: 1024,
      height: 768,
      local_created_at: 1,
      file_state: 'remote',
      remote_state: 'present',
    });
  });

  it('keeps every local field when the server record changes', () => {
    cache.assets.upsertFromServer(assetFieldsFromImage(image()), 1);
    const seq = cache.assets.get('image', 'img-1')!.seq;
    cache.assets.setLocalFile(seq, {
      fileState: 'downloaded',
      localPath: 'images/img-1.jpg',
      bytes: 1234,
      width: 2048,
      height: 1536,
      sha256: 'ab'.repeat(32),
      thumbPath: 'thumbs/img-1.webp',
    });
    cache.assets.recordGeneration('image', 'img-1', {
      jobId: 'job-9',
      prompt: 'the prompt I typed',
      params: { modelID: 'imagea', prompt: 'the prompt I typed', numImages: 2 },
      preset: 'photo',
    });
    const changed = image({
      url: 'https://cdn.example.test/img-1-v2.jpg',
      data: { prompt: 'server prompt', width: 10, height: 10 },
      updatedAt: '2025-07-01T00:00:00Z',
    });
    expect(cache.assets.upsertFromServer(assetFieldsFromImage(changed), 5)).toBe('updated');
    expect(cache.assets.get('image', 'img-1')).toMatchObject({
      seq,
      url: 'https://cdn.example.test/img-1-v2.jpg',
      updated_at: Date.parse('2025-07-01T00:00:00Z'),
      file_state: 'downloaded',
      local_path: 'images/img-1.jpg',
      bytes: 1234,
      width: 2048,
      height: 1536,
      thumb_path: 'thumbs/img-1.webp',
      job_id: 'job-9',
      prompt: 'the prompt I typed',
      preset: 'photo',
      local_created_at: 1,
    });
    expect(JSON.parse(cache.assets.get('image', 'img-1')!.params!)).toEqual({
      modelID: 'imagea',
      prompt: 'the prompt I typed',
      numImages: 2,
    });
  });

  it('keeps the first-seen time when the server sends no createdAt', () => {
    const { createdAt: _drop, ...noTime } = image();
    cache.assets.upsertFromServer(assetFieldsFromImage(noTime), 1000);
    cache.assets.upsertFromServer(assetFieldsFromImage({ ...noTime, liked: true }), 9000);
    expect(cache.assets.get('image', 'img-1')?.created_at).toBe(1000);
  });

  it('classifies uploads, reads video fields and spots HLS playlists', () => {
    cache.assets.upsertFromServer(assetFieldsFromImage(image({ id: 'in-1', type: 'modelInput', data: {} })), 1);
    const video: VideoRecord = {
      id: 'vid-1',
      jobId: 'job-v',
      modelID: 'videoa-3.1',
      type: 'video',
      url: 'https://cdn.example.test/hls/vid-1/master.m3u8?sig=x',
      liked: false,
      data: { prompt: 'waves', durationSeconds: 8 },
      createdAt: '2025-01-01T00:00:00Z',
    };
    cache.assets.upsertFromServer(assetFieldsFromVideo(video), 1);
    expect(cache.assets.get('image', 'in-1')?.origin).toBe('uploaded');
    expect(cache.assets.get('video', 'vid-1')).toMatchObject({
      origin: 'generated',
      hls: 1,
      job_id: 'job-v',
      duration_ms: 8000,
      prompt: 'waves',
    });
  });

  it('records upscale lineage from the source image', () => {
    cache.assets.upsertFromServer(
      assetFieldsFromImage(image({ upscaledImageID: 'img-up', upscaledImageURL: 'https://cdn.example.test/up.jpg' })),
      1,
    );
    cache.assets.upsertFromServer(assetFieldsFromImage(image({ id: 'img-up', data: {} })), 1);
    expect(cache.assets.linkUpscaleSources()).toBe(1);
    expect(cache.assets.get('image', 'img-up')?.source_asset_id).toBe('img-1');
    expect(cache.assets.linkUpscaleSources()).toBe(0);
  });
});

describe('AssetsRepo.removeFromServer', () => {
  it('deletes an asset without a local file and keeps a downloaded one as gone', () => {
    cache.assets.upsertFromServer(assetFieldsFromImage(image({ id: 'a' })), 1);
    cache.assets.upsertFromServer(assetFieldsFromImage(image({ id: 'b' })), 1);
    const b = cache.assets.get('image', 'b')!;
    cache.assets.setLocalFile(b.seq, { fileState: 'downloaded', localPath: 'images/b.jpg' });
    const keys = cache.assets.syncKeys('image');
    const outcomes = keys.map((key) => [key.id, cache.assets.removeFromServer(key)]);
    expect(Object.fromEntries(outcomes)).toEqual({ a: 'deleted', b: 'gone' });
    expect(cache.assets.get('image', 'a')).toBeUndefined();
    expect(cache.assets.get('image', 'b')?.remote_state).toBe('gone');
    // Seen again: present once more, without losing the file.
    expect(cache.assets.upsertFromServer(assetFieldsFromImage(image({ id: 'b' })), 2)).toBe('updated');
    expect(cache.assets.get('image', 'b')).toMatchObject({ remote_state: 'present', file_state: 'downloaded' });
  });
});

describe('AssetsRepo media facts (schema 14)', () => {
  const bare = (id: string): ImageRecord => image({ id, data: {} });
  const facts = (id: string) => {
    const row = cache.assets.get('image', id)!;
    return { width: row.width, height: row.height, format: row.format, from: row.facts_from };
  };

  it('knows a finished job’s size from its request before any download: the grid’s map has its shape', () => {
    for (const [id, aspectRatio] of [
      ['square', '1:1'],
      ['wide', '3:2'],
      ['tall', '9:16'],
    ] as const) {
      cache.assets.upsertFromServer(assetFieldsFromImage(bare(id)), 1);
      expect(facts(id)).toEqual({ width: null, height: null, format: null, from: null });
      cache.assets.recordGeneration('image', id, { params: { modelID: 'imagea', prompt: 'x', aspectRatio } });
    }
    expect(facts('wide')).toEqual({ width: 1024, height: 672, format: null, from: 'request' });
    expect(facts('tall')).toEqual({ width: 576, height: 1024, format: null, from: 'request' });
    // assets:layout reads width and height in SQL: every shape is known (code 0 would be "unknown").
    const [page] = cache.assets.layout({ sort: 'oldest', pages: 1, pageSize: 10 }).pages;
    expect([...page!.shapes]).toEqual([shapeCode(1, 1), shapeCode(1024, 672), shapeCode(576, 1024)]);
  });

  it('takes the request inside the service’s data at sync, and the service’s own size over it', () => {
    const asked = { modelID: 'imagea', prompt: 'x', aspectRatio: '16:9' };
    cache.assets.upsertFromServer(assetFieldsFromImage(image({ id: 'a', data: { request: asked } })), 1);
    expect(facts('a')).toEqual({ width: 1024, height: 576, format: null, from: 'request' });
    const told = image({ id: 'a', data: { request: asked, width: 1000, height: 560, format: 'JPEG' } });
    cache.assets.upsertFromServer(assetFieldsFromImage(told), 2);
    expect(facts('a')).toEqual({ width: 1000, height: 560, format: 'jpeg', from: 'service' });
  });

  it('lets the file’s facts win over every other source, and never the other way', () => {
    cache.assets.upsertFromServer(assetFieldsFromImage(bare('f')), 1);
    const seq = cache.assets.get('image', 'f')!.seq;
    cache.assets.recordGeneration('image', 'f', { params: { modelID: 'imagea', prompt: 'x', aspectRatio: '3:2' } });
    expect(cache.assets.recordFacts(seq, { width: 1024, height: 688, durationMs: null, format: 'png' }, 'file')).toBe(
      true,
    );
    expect(facts('f')).toEqual({ width: 1024, height: 688, format: 'png', from: 'file' });
    // A later request record or service record leaves the file's facts alone.
    cache.assets.recordGeneration('image', 'f', { params: { modelID: 'imagea', prompt: 'y', aspectRatio: '1:1' } });
    cache.assets.upsertFromServer(assetFieldsFromImage(image({ id: 'f', data: { width: 5, height: 5 } })), 3);
    expect(cache.assets.recordFacts(seq, { width: 9, height: 9, durationMs: null, format: null }, 'service')).toBe(
      false,
    );
    expect(facts('f')).toEqual({ width: 1024, height: 688, format: 'png', from: 'file' });
  });
});
