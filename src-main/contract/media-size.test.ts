import { describe, expect, it } from 'vitest';
import { requestedMedia, tierSize, videoFrameSize } from './media-size.ts';
import { floorToEdgeMultiple } from './rules/index.ts';

describe('the one size rule of a request', () => {
  it('rounds a derived edge down to a multiple of 16, for every family', () => {
    expect(tierSize('1K', '3:2')).toEqual({ width: 1024, height: 672 });
    expect(tierSize('1K', '2:3')).toEqual({ width: 672, height: 1024 });
    expect(tierSize('2K', '21:9')).toEqual({ width: 2048, height: 864 });
    expect(tierSize('1K', '16:9')).toEqual({ width: 1024, height: 576 });
    expect(tierSize('5K', '1:1')).toBeNull();
    expect(tierSize('1K', 'adaptive')).toBeNull();
    // Every tier at every image ratio: edges are multiples of 16, never above the tier's long edge.
    for (const tier of ['1K', '2K', '3K', '4K']) {
      for (const ratio of ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9']) {
        const size = tierSize(tier, ratio);
        if (!size || size.width % 16 || size.height % 16) throw new Error(`${tier} ${ratio}: ${JSON.stringify(size)}`);
      }
    }
    expect(floorToEdgeMultiple(682.67)).toBe(672);
  });

  it('reads what each kind of request asks for', () => {
    expect(requestedMedia('image', { modelID: 'imagea', prompt: 'x', aspectRatio: '3:2' })).toEqual({
      width: 1024,
      height: 672,
      durationMs: null,
      format: null,
    });
    expect(
      requestedMedia('image', {
        modelID: 'imagec-2',
        prompt: 'x',
        aspectRatio: '16:9',
        options: { imagec: { imageSize: '2K', outputFormat: 'png' } },
      }),
    ).toEqual({ width: 2720, height: 1536, durationMs: null, format: 'png' });
    expect(requestedMedia('image', { modelID: 'mdl_1', width: 768, height: 1024 })).toMatchObject({
      width: 768,
      height: 1024,
    });
    expect(requestedMedia('image', { imageID: 'img_1' })).toEqual({
      width: null,
      height: null,
      durationMs: null,
      format: null,
    });
    // A video: the family's defaults fill what the request left out (videoa: 8 s, 720p, 16:9).
    expect(requestedMedia('video', { modelID: 'videoa-3.1', prompt: 'x', options: { videoa: {} } })).toEqual({
      width: 1280,
      height: 720,
      durationMs: 8000,
      format: null,
    });
    expect(
      requestedMedia('video', {
        modelID: 'videod-1.5',
        prompt: 'x',
        options: { videod: { duration: 4, aspectRatio: '9:16', resolution: '720p' } },
      }),
    ).toMatchObject({ width: 720, height: 1280, durationMs: 4000 });
    expect(requestedMedia('video', null).width).toBeNull();
    expect(videoFrameSize('1080p', '9:16')).toEqual({ width: 1080, height: 1920 });
  });
});
