import { describe, expect, it } from 'vitest';
import { assetAspect, clampShape, pendingAspect, requestAspect } from './media-shape.ts';

describe('requestAspect', () => {
  it('reads an image request, a video option group (aspectRatio or ratio) and a trained model size', () => {
    expect(requestAspect({ aspectRatio: '21:9' })).toBeCloseTo(21 / 9);
    expect(requestAspect({ options: { videoa: { aspectRatio: '9:16' } } })).toBeCloseTo(9 / 16);
    expect(requestAspect({ options: { videob: { ratio: '4:3' } } })).toBeCloseTo(4 / 3);
    expect(requestAspect({ width: 768, height: 1024 })).toBeCloseTo(0.75);
    expect(requestAspect({ prompt: 'x' })).toBeNull();
    expect(requestAspect(null)).toBeNull();
  });
});

describe('assetAspect', () => {
  it('prefers the known pixels, then the request, then the kind', () => {
    expect(
      assetAspect({ kind: 'image', width: 2048, height: 880, paramsJson: JSON.stringify({ aspectRatio: '1:1' }) }),
    ).toBeCloseTo(2048 / 880);
    expect(
      assetAspect({ kind: 'image', width: null, height: null, paramsJson: JSON.stringify({ aspectRatio: '9:16' }) }),
    ).toBeCloseTo(9 / 16);
    expect(assetAspect({ kind: 'video', width: null, height: null, paramsJson: null })).toBeCloseTo(16 / 9);
    expect(assetAspect({ kind: 'image', width: null, height: null, paramsJson: null })).toBe(1);
    expect(pendingAspect('video', {})).toBeCloseTo(16 / 9);
  });

  it('clamps extreme shapes for layout', () => {
    expect(clampShape(100)).toBe(4);
    expect(clampShape(0.01)).toBe(0.25);
    expect(clampShape(1.5)).toBe(1.5);
  });
});
