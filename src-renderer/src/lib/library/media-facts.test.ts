import { describe, expect, it } from 'vitest';
import { mediaFacts, mediaFactsLine } from './media-facts.ts';

const file = (bytes: number | null, state: 'remote' | 'downloaded' = 'downloaded') => ({
  state,
  path: null,
  thumbPath: null,
  localUrl: null,
  thumbUrl: null,
  bytes,
});

describe('media facts as the viewer and tooltips say them', () => {
  it('an image read from its file: dimensions, format, size on disk', () => {
    const image = {
      kind: 'image' as const,
      width: 1024,
      height: 1024,
      durationMs: null,
      format: 'png',
      factsFrom: 'file' as const,
      file: file(1_234_567),
    };
    expect(mediaFacts(image)).toEqual([
      { label: 'Dimensions', value: '1024 × 1024' },
      { label: 'Format', value: 'PNG' },
      { label: 'On disk', value: '1.2 MB' },
    ]);
    expect(mediaFactsLine(image)).toBe('1024 × 1024 · PNG · 1.2 MB');
  });

  it('a video only requested: frame size and length marked as requested, nothing on disk', () => {
    const video = {
      kind: 'video' as const,
      width: 1280,
      height: 720,
      durationMs: 8000,
      format: null,
      factsFrom: 'request' as const,
      file: file(null, 'remote'),
    };
    expect(mediaFacts(video)).toEqual([
      { label: 'Frame size', value: '1280 × 720 (requested)' },
      { label: 'Length', value: '0:08 (requested)' },
    ]);
  });
});
