// normalize() sends only what the model accepts and applies the service's forced values; notices() warn about them.
import { describe, expect, it } from 'vitest';
import type { GenerationRequest } from './common.ts';
import { IMAGE_OPTION_GROUPS } from './image-models.ts';
import { PUBLIC_IMAGE_MODELS, VIDEO_MODELS, defaultsFor, normalize, notices, validate } from './index.ts';

const ALL_IMAGE_GROUPS = IMAGE_OPTION_GROUPS;
const ALL_VIDEO_GROUPS = ['videoa', 'videob', 'videoc', 'videod'];
const normBody = (request: GenerationRequest) => normalize(request).body as Record<string, unknown>;

describe('normalize: image', () => {
  it.each(Object.entries(PUBLIC_IMAGE_MODELS))('%s keeps only its own option group and settings', (id, rules) => {
    const options = Object.fromEntries(
      ALL_IMAGE_GROUPS.map((g) => [g, { imageSize: '2K', bogus: 1, quality: 'high' }]),
    );
    const body = normBody({
      kind: 'image',
      body: { modelID: id, prompt: 'p', width: 512, stray: true, options, referenceImageURLs: ['https://a/b.png'] },
    });
    expect(Object.keys(body).sort()).toEqual(['modelID', 'options', 'prompt', 'referenceImageURLs']);
    const groups = body['options'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(groups)).toEqual([rules.optionGroup]);
    for (const key of Object.keys(groups[rules.optionGroup]!)) expect(Object.keys(rules.options)).toContain(key);
  });

  it('forces imageb sequentialMode to auto when numImages > 1, and only then', () => {
    const body = {
      modelID: 'imageb-4_5',
      prompt: 'p',
      numImages: 3,
      options: { imageb: { sequentialMode: 'disabled' } },
    };
    expect(normBody({ kind: 'image', body })['options']).toEqual({ imageb: { sequentialMode: 'auto' } });
    expect(normBody({ kind: 'image', body: { ...body, numImages: 1 } })['options']).toEqual({
      imageb: { sequentialMode: 'disabled' },
    });
    expect(normBody({ kind: 'image', body: { modelID: 'imageb', prompt: 'p', numImages: 2 } })['options']).toEqual({
      imageb: { sequentialMode: 'auto' },
    });
  });

  it('drops imagec outputCompression unless the output is jpeg', () => {
    const png = {
      modelID: 'imagec-2',
      prompt: 'p',
      options: { imagec: { outputFormat: 'png', outputCompression: 50 } },
    };
    expect(normBody({ kind: 'image', body: png })['options']).toEqual({ imagec: { outputFormat: 'png' } });
    const jpeg = { modelID: 'imagec-2', prompt: 'p', options: { imagec: { outputCompression: 50 } } };
    expect(normBody({ kind: 'image', body: jpeg })['options']).toEqual({ imagec: { outputCompression: 50 } });
  });

  it('keeps only trained fields for a trained model', () => {
    const body = normBody({
      kind: 'image',
      body: { modelID: 'mine', prompt: 'p', steps: 20, aspectRatio: '1:1', options: { imagea: {} }, x: 1 },
    });
    expect(body).toEqual({ modelID: 'mine', prompt: 'p', steps: 20 });
  });

  it('omits options when nothing is left in the group', () => {
    const body = normBody({ kind: 'image', body: { modelID: 'imagea', prompt: 'p', options: { imageb: { x: 1 } } } });
    expect(body).toEqual({ modelID: 'imagea', prompt: 'p' });
  });
});

describe('normalize: video', () => {
  const everything = {
    prompt: 'p',
    numVideos: 1,
    referenceImages: [
      { url: 'https://m/a.png', role: 'first_frame', containsHuman: true },
      { url: 'https://m/b.png', role: 'reference_image', containsHuman: false },
    ],
    referenceVideos: [{ url: 'https://m/v.mp4', role: 'reference_video', duration: 3.5 }],
    elementIDs: ['el1'],
    options: Object.fromEntries(ALL_VIDEO_GROUPS.map((g) => [g, { duration: 8, draftMode: true, bogus: 1 }])),
    stray: 1,
  };

  it.each(Object.entries(VIDEO_MODELS))(
    '%s: own group only, no backend-only fields, no unaccepted refs',
    (id, rules) => {
      const body = normBody({ kind: 'video', body: { ...everything, modelID: id } });
      expect(Object.keys(body)).not.toContain('stray');
      const groups = (body['options'] ?? {}) as Record<string, Record<string, unknown>>;
      for (const g of Object.keys(groups)) expect(g).toBe(rules.optionGroup);
      for (const key of Object.keys(groups[rules.optionGroup] ?? {})) expect(Object.keys(rules.options)).toContain(key);
      for (const ref of (body['referenceImages'] ?? []) as Record<string, unknown>[]) {
        expect(Object.keys(ref).sort()).toEqual(['role', 'url']);
        expect(rules.references.imageRoles[ref['role'] as 'first_frame']).toBeGreaterThan(0);
      }
      for (const ref of (body['referenceVideos'] ?? []) as Record<string, unknown>[]) {
        expect(Object.keys(ref).sort()).toEqual(['role', 'url']);
      }
      if (rules.references.maxReferenceVideos === 0) expect(body).not.toHaveProperty('referenceVideos');
      if (!rules.references.acceptsElementIDs) expect(body).not.toHaveProperty('elementIDs');
    },
  );

  it('videob-1.5-pro: drops reference_image inputs and forces 480p in draft mode', () => {
    const body = normBody({
      kind: 'video',
      body: {
        modelID: 'videob-1.5-pro',
        prompt: 'p',
        referenceImages: [
          { url: 'https://m/a.png', role: 'reference_image' },
          { url: 'https://m/f.png', role: 'first_frame' },
        ],
        options: { videob: { draftMode: true, resolution: '1080p' } },
      },
    });
    expect(body['referenceImages']).toEqual([{ url: 'https://m/f.png', role: 'first_frame' }]);
    expect(body['options']).toEqual({ videob: { draftMode: true, resolution: '480p' } });
  });

  it('leaves resolution alone without draft mode', () => {
    const body = {
      modelID: 'videob-1.5-pro',
      prompt: 'p',
      options: { videob: { draftMode: false, resolution: '1080p' } },
    };
    expect(normBody({ kind: 'video', body })['options']).toEqual({ videob: { draftMode: false, resolution: '1080p' } });
  });
});

describe('normalize keeps valid requests valid and is idempotent', () => {
  const valid: GenerationRequest[] = [
    {
      kind: 'image',
      body: { modelID: 'imageb', prompt: 'p', numImages: 2, options: { imageb: { optimizeMode: 'fast' } } },
    },
    {
      kind: 'image',
      body: { modelID: 'imagec-2', prompt: 'p', aspectRatio: '16:9', options: { imagec: { imageSize: '4K' } } },
    },
    { kind: 'image', body: { modelID: 'trained-1', inputImageId: 'img', styleStrength: 0.3 } },
    { kind: 'video', body: { modelID: 'videob-1.5-pro', prompt: 'p', options: { videob: { draftMode: true } } } },
    {
      kind: 'video',
      body: {
        modelID: 'videoc-motion-pro',
        prompt: 'p',
        referenceVideos: [{ url: 'https://m/v.mp4', role: 'reference_video' }],
      },
    },
    { kind: 'upscale', body: { imageID: 'img_1' } },
  ];
  it.each(valid)('%j', (request) => {
    expect(validate(request)).toEqual([]);
    const once = normalize(request);
    expect(validate(once)).toEqual([]);
    expect(normalize(once)).toEqual(once);
  });

  it('normalizes an upscale body to imageID only', () => {
    expect(normalize({ kind: 'upscale', body: { imageID: 'i', extra: 1 } }).body).toEqual({ imageID: 'i' });
  });

  it.each([...Object.keys(PUBLIC_IMAGE_MODELS), ...Object.keys(VIDEO_MODELS), 'trained-1'])(
    'defaultsFor(%s) plus a prompt is a valid request',
    (id) => {
      const kind = id in VIDEO_MODELS ? 'video' : 'image';
      expect(validate({ kind, body: { modelID: id, prompt: 'p', ...defaultsFor(id) } })).toEqual([]);
    },
  );
});

describe('defaultsFor', () => {
  it('gives the spec defaults', () => {
    expect(defaultsFor('imagea')).toEqual({
      aspectRatio: '1:1',
      numImages: 1,
      options: { imagea: { imageSize: '1K' } },
    });
    expect(defaultsFor('imagec-2')['options']).toEqual({
      imagec: { background: 'auto', moderation: 'auto', outputFormat: 'jpeg' },
    });
    expect(defaultsFor('videoa-3.1')['options']).toEqual({
      videoa: { aspectRatio: '16:9', duration: 8, resolution: '720p', enhancePrompt: true, generateAudio: false },
    });
    expect(defaultsFor('videoc-video-pro')['options']).toEqual({ videoc: { duration: 10, generateAudio: false } });
    expect(defaultsFor('videoc-motion-pro')['options']).toEqual({
      videoc: { characterOrientation: 'video', keepOriginalSound: true },
    });
    expect(defaultsFor('videod-1.5')['options']).toEqual({
      videod: { duration: 8, aspectRatio: '16:9', resolution: '480p' },
    });
    expect(defaultsFor('my-trained-model')).toEqual({ numImages: 1 });
  });
});

describe('notices', () => {
  const fields = (request: GenerationRequest) => notices(request).map((n) => n.field);

  it('videob-1.5-pro warns that reference_image inputs are dropped', () => {
    const body = {
      modelID: 'videob-1.5-pro',
      prompt: 'p',
      referenceImages: [
        { url: 'https://m/f.png', role: 'first_frame' },
        { url: 'https://m/a.png', role: 'reference_image' },
      ],
    };
    expect(notices({ kind: 'video', body })).toEqual([
      { field: 'referenceImages[1]', message: expect.stringContaining('drops reference_image') },
    ]);
    expect(fields({ kind: 'video', body: { ...body, modelID: 'videob-2.0' } })).toEqual([]);
  });

  it('videob-1.5-pro warns that draft mode forces 480p', () => {
    const body = (s: Record<string, unknown>) => ({ modelID: 'videob-1.5-pro', prompt: 'p', options: { videob: s } });
    expect(fields({ kind: 'video', body: body({ draftMode: true, resolution: '1080p' }) })).toEqual([
      'options.videob.resolution',
    ]);
    expect(fields({ kind: 'video', body: body({ draftMode: true, resolution: '480p' }) })).toEqual([]);
    expect(fields({ kind: 'video', body: body({ draftMode: false, resolution: '1080p' }) })).toEqual([]);
  });

  it('imageb warns when sequentialMode will be forced to auto', () => {
    const body = (n: number, mode: string) => ({
      modelID: 'imageb',
      prompt: 'p',
      numImages: n,
      options: { imageb: { sequentialMode: mode } },
    });
    expect(fields({ kind: 'image', body: body(2, 'disabled') })).toEqual(['options.imageb.sequentialMode']);
    expect(fields({ kind: 'image', body: body(1, 'disabled') })).toEqual([]);
    expect(fields({ kind: 'image', body: body(4, 'auto') })).toEqual([]);
  });

  it('videoc video models warn that aspectRatio is ignored outside text-to-video', () => {
    const body = (extra: Record<string, unknown>) => ({
      modelID: 'videoc-video-pro',
      prompt: 'p',
      options: { videoc: { aspectRatio: '1:1' } },
      ...extra,
    });
    expect(
      fields({ kind: 'video', body: body({ referenceImages: [{ url: 'https://m/a.png', role: 'first_frame' }] }) }),
    ).toEqual(['options.videoc.aspectRatio']);
    expect(fields({ kind: 'video', body: body({ elementIDs: ['el1'] }) })).toEqual(['options.videoc.aspectRatio']);
    expect(fields({ kind: 'video', body: body({}) })).toEqual([]);
  });
});
