import { describe, expect, it } from 'vitest';
import { imagePixelSize, shapeBox, videoPixelSize } from './aspect-ratio.ts';

describe('aspect ratios as shapes and sizes', () => {
  it('draws the long side full and keeps the shape', () => {
    expect(shapeBox('16:9', 16)).toEqual({ width: 16, height: 9 });
    expect(shapeBox('9:16', 16)).toEqual({ width: 9, height: 16 });
    expect(shapeBox('adaptive', 16)).toBeNull();
  });

  it('says the pixel size: exact for imagec, about for the other families, frames for videos', () => {
    expect(imagePixelSize('imagec', '2K', '1:1')).toEqual({ width: 2048, height: 2048, exact: true });
    expect(imagePixelSize('imagec', '4K', '21:9')).toBeNull();
    expect(imagePixelSize('imagea', '1K', '16:9')).toEqual({ width: 1024, height: 576, exact: false });
    expect(imagePixelSize('imagea', undefined, '16:9')).toBeNull();
    expect(videoPixelSize('720p', '16:9')).toEqual({ width: 1280, height: 720 });
    expect(videoPixelSize('1080p', '9:16')).toEqual({ width: 1080, height: 1920 });
    expect(videoPixelSize('720p', 'adaptive')).toBeNull();
  });
});
