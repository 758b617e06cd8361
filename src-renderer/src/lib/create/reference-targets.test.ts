import { describe, expect, it } from 'vitest';
import { VIDEO_MODELS } from '@contract/rules/video-models.ts';
import {
  imageReferenceRefusal,
  targetLimit,
  targetTakesKind,
  videoReferenceRefusal,
  type VideoReferenceState,
} from './reference-targets.ts';

const image = (name: string) => ({ kind: 'image' as const, id: name, url: `https://media.example.com/${name}.png` });
const video = (name: string) => ({ kind: 'video' as const, id: name, url: `https://media.example.com/${name}.mp4` });

function state(modelID: keyof typeof VIDEO_MODELS, parts: Partial<VideoReferenceState> = {}): VideoReferenceState {
  return {
    modelID,
    rules: VIDEO_MODELS[modelID].references,
    referenceImages: [],
    referenceVideos: [],
    elementIDs: [],
    ...parts,
  };
}

describe('video reference targets', () => {
  it('takes an image as a first frame, a last frame or a reference where the model does', () => {
    for (const role of ['first_frame', 'last_frame', 'reference_image'] as const) {
      expect(videoReferenceRefusal(role, image('a'), state('videoa-3.1'))).toBeNull();
    }
  });

  it('refuses a role the model does not take, with the reason', () => {
    expect(videoReferenceRefusal('reference_image', image('a'), state('videod-1.5'))).toBe(
      'Video D 1.5 takes no reference images.',
    );
    expect(videoReferenceRefusal('reference_video', video('v'), state('videoa-3.1'))).toBe(
      'Video A 3.1 takes no reference videos.',
    );
    // Whatever the item: the role itself is the first reason.
    expect(videoReferenceRefusal('reference_video', image('a'), state('videoa-3.1'))).toBe(
      'Video A 3.1 takes no reference videos.',
    );
    expect(targetLimit('reference_video', VIDEO_MODELS['videob-2.0'].references)).toBe(3);
  });

  it('allows a role the service drops (the form then says it will not be used)', () => {
    expect(videoReferenceRefusal('reference_image', image('a'), state('videob-1.5-pro'))).toBeNull();
  });

  it('refuses the wrong kind: videos are not frames, images are not reference videos', () => {
    expect(videoReferenceRefusal('first_frame', video('v'), state('videob-2.0'))).toBe(
      'A video cannot be a first frame: use an image.',
    );
    expect(videoReferenceRefusal('reference_video', image('a'), state('videob-2.0'))).toBe(
      'An image cannot be a reference video: use a video.',
    );
    expect(targetTakesKind('reference_video', 'video')).toBe(true);
    expect(targetTakesKind('first_frame', 'video')).toBe(false);
    expect(targetTakesKind('first_frame', null)).toBe(true);
  });

  it('refuses past a role count, a duplicate, and past the cap on all items', () => {
    const withFirst = state('videoa-3.1', { referenceImages: [{ url: image('a').url, role: 'first_frame' }] });
    expect(videoReferenceRefusal('first_frame', image('b'), withFirst)).toBe(
      'Video A 3.1 takes one first frame: remove the one there first.',
    );
    expect(videoReferenceRefusal('first_frame', image('a'), withFirst)).toBe('Already added as first frame.');
    expect(videoReferenceRefusal('last_frame', image('a'), withFirst)).toBeNull();

    const threeRefs = state('videoa-3.1', {
      referenceImages: ['x', 'y', 'z'].map((n) => ({ url: image(n).url, role: 'reference_image' as const })),
    });
    expect(videoReferenceRefusal('reference_image', image('w'), threeRefs)).toBe(
      'Video A 3.1 takes 3 reference images: remove one first.',
    );

    const full = state('videoc-video-pro', { elementIDs: ['e1', 'e2', 'e3'], referenceVideos: [video('v').url] });
    expect(videoReferenceRefusal('first_frame', image('a'), full)).toBe(
      'Video C Pro takes 4 elements and references in all: remove one first.',
    );
  });

  it('refuses an item with nothing to send', () => {
    expect(videoReferenceRefusal('first_frame', { kind: 'image', id: 'gone', url: null }, state('videoa-3.1'))).toMatch(
      /no link on the service/,
    );
  });
});

describe('image reference URLs', () => {
  const base = { modelID: 'imagea', max: 3, urls: [] as string[] };

  it('takes images and bare links up to the model maximum, once each', () => {
    expect(imageReferenceRefusal(image('a'), base)).toBeNull();
    expect(imageReferenceRefusal({ kind: null, id: null, url: 'https://x.example/y.png' }, base)).toBeNull();
    expect(imageReferenceRefusal(image('a'), { ...base, urls: [image('a').url] })).toBe(
      'Already in the reference images.',
    );
    expect(imageReferenceRefusal(image('d'), { ...base, urls: ['1', '2', '3'] })).toBe(
      'Image A takes up to 3 reference images: remove one first.',
    );
  });

  it('refuses videos', () => {
    expect(imageReferenceRefusal(video('v'), base)).toBe('A video cannot be a reference image: use an image.');
  });
});
