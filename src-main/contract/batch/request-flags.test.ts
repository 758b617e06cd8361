import { describe, expect, it } from 'vitest';
import { validate } from '../rules/index.ts';
import { buildImageBody, buildVideoBody, coerce, splitPair } from './request-flags.ts';

describe('flag values guided by the rules tables', () => {
  it('turns numbers and booleans into their types only where the table wants them', () => {
    expect(coerce('80', { kind: 'int', min: 0, max: 100 })).toBe(80);
    expect(coerce('0.5', { kind: 'number', min: 0, max: 1 })).toBe(0.5);
    expect(coerce('true', { kind: 'boolean' })).toBe(true);
    expect(coerce('no', { kind: 'boolean' })).toBe(false);
    // An enum of strings stays text, even when it looks like a number.
    expect(coerce('1', { kind: 'enum', values: ['1', '2'] })).toBe('1');
    // Text that is not the wanted type is kept, so validate names the field.
    expect(coerce('lots', { kind: 'int', min: 1, max: 4 })).toBe('lots');
  });

  it('splits KEY=VALUE at the first =', () => {
    expect(splitPair('first_frame=https://x.test/a.png?s=1')).toEqual(['first_frame', 'https://x.test/a.png?s=1']);
    expect(splitPair('=x')).toBeNull();
    expect(splitPair('novalue')).toBeNull();
  });
});

describe('image bodies', () => {
  it('puts --option values into the model’s own option group with their types', () => {
    const built = buildImageBody({
      model: 'imagec-2',
      prompt: 'a lighthouse',
      numImages: '2',
      options: ['imageSize=2K', 'outputFormat=jpeg', 'outputCompression=80'],
    });
    expect(built).toEqual({
      ok: true,
      body: {
        modelID: 'imagec-2',
        prompt: 'a lighthouse',
        numImages: 2,
        options: { imagec: { imageSize: '2K', outputFormat: 'jpeg', outputCompression: 80 } },
      },
    });
    if (built.ok) expect(validate({ kind: 'image', body: built.body })).toEqual([]);
  });

  it('builds a trained-model body from the numeric flags', () => {
    const built = buildImageBody({
      model: 'my-model',
      prompt: 'me',
      width: '768',
      height: '1024',
      steps: '30',
      seed: '7',
      enhanceFace: true,
      styleStrength: '0.4',
    });
    expect(built.ok && built.body).toEqual({
      modelID: 'my-model',
      prompt: 'me',
      width: 768,
      height: 1024,
      steps: 30,
      seed: 7,
      enhanceFace: true,
      styleStrength: 0.4,
    });
  });

  it('leaves bad values to validate, which names each field', () => {
    const built = buildImageBody({ model: 'imagea', prompt: 'x', numImages: 'many', options: ['imageSize=8K'] });
    expect(built.ok).toBe(true);
    const fields = built.ok ? validate({ kind: 'image', body: built.body }).map((p) => p.field) : [];
    expect(fields).toEqual(expect.arrayContaining(['numImages', 'options.imagea.imageSize']));
  });

  it('refuses an --option without a key', () => {
    expect(buildImageBody({ model: 'imagea', prompt: 'x', options: ['2K'] })).toMatchObject({
      ok: false,
      problems: [{ field: '--option' }],
    });
  });
});

describe('video bodies', () => {
  it('reads ROLE=URL references, reference videos, elements and typed options', () => {
    const built = buildVideoBody({
      model: 'videoa-3.1',
      prompt: 'waves',
      referenceImages: ['first_frame=https://x.test/a.png'],
      options: ['duration=6', 'generateAudio=true', 'negativePrompt=blur'],
    });
    expect(built.ok && built.body).toEqual({
      modelID: 'videoa-3.1',
      prompt: 'waves',
      referenceImages: [{ url: 'https://x.test/a.png', role: 'first_frame' }],
      options: { videoa: { duration: 6, generateAudio: true, negativePrompt: 'blur' } },
    });
    const motion = buildVideoBody({
      model: 'videoc-motion-pro',
      prompt: 'dance',
      referenceVideos: ['https://x.test/v.mp4'],
      elements: ['img_1'],
    });
    expect(motion.ok && motion.body).toMatchObject({
      referenceVideos: [{ url: 'https://x.test/v.mp4', role: 'reference_video' }],
      elementIDs: ['img_1'],
    });
  });

  it('refuses a reference image without a role', () => {
    expect(buildVideoBody({ model: 'videoa-3.1', prompt: 'x', referenceImages: ['https://x.test/a.png'] }).ok).toBe(
      false,
    );
  });
});
