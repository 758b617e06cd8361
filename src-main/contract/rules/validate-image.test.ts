// Every rule of the image tables (spec §4 public families, trained models, §8 limits) accepted once and refused once.
import { describe, expect, it } from 'vitest';
import type { FieldProblem } from './common.ts';
import { IMAGE_ASPECT_RATIOS, PUBLIC_IMAGE_MODELS, PUBLIC_IMAGE_MODEL_IDS, validate } from './index.ts';
import type { PublicImageModelId } from './image-models.ts';

const image = (body: unknown): FieldProblem[] => validate({ kind: 'image', body });

function expectRefused(problems: FieldProblem[], field: string, text?: string): void {
  const hit = problems.find((p) => p.field === field);
  expect(hit, `expected a problem on "${field}", got ${JSON.stringify(problems)}`).toBeDefined();
  if (text !== undefined) expect(hit?.message).toContain(text);
}

// Read from the rule table: a model added there is covered by every loop below.
const GROUP = (id: string): string => PUBLIC_IMAGE_MODELS[id as PublicImageModelId].optionGroup;
const base = (modelID: string, extra: Record<string, unknown> = {}) => ({ modelID, prompt: 'a red fox', ...extra });
const withOptions = (modelID: string, settings: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  base(modelID, { ...extra, options: { [GROUP(modelID)]: settings } });
const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://img.example/${i}.png`);

describe('public image families: top-level fields', () => {
  it.each(PUBLIC_IMAGE_MODEL_IDS)('%s accepts a minimal body and the form defaults', (id) => {
    expect(image(base(id))).toEqual([]);
    expect(image(base(id, { preset: 'cinematic', aspectRatio: '1:1', numImages: 1 }))).toEqual([]);
  });

  it('refuses a missing modelID and names the public models', () => {
    expectRefused(image({ prompt: 'x' }), 'modelID', 'imagea-pro');
    expectRefused(image({ modelID: '', prompt: 'x' }), 'modelID');
  });

  it('requires a non-empty prompt; a preset alone is not enough', () => {
    expectRefused(image({ modelID: 'imagea', preset: 'cinematic' }), 'prompt', 'required');
    expectRefused(image(base('imagea', { prompt: '   ' })), 'prompt');
    expectRefused(image(base('imagea', { prompt: 42 })), 'prompt');
  });

  it('refuses an empty or non-string preset', () => {
    expectRefused(image(base('imageb', { preset: '' })), 'preset');
    expectRefused(image(base('imageb', { preset: ['x'] })), 'preset');
  });

  it.each(IMAGE_ASPECT_RATIOS)('accepts aspectRatio %s', (r) => {
    expect(image(base('imagea-2', { aspectRatio: r }))).toEqual([]);
  });

  it.each(['7:3', '1:2', '', 1.5, null])('refuses aspectRatio %j', (r) => {
    expectRefused(image(base('imagea-2', { aspectRatio: r })), 'aspectRatio');
  });

  it.each([1, 2, 3, 4])('accepts numImages %i', (n) => {
    expect(image(base('imageb', { numImages: n }))).toEqual([]);
  });

  it.each([0, 5, -1, 2.5, '2', null])('refuses numImages %j', (n) => {
    expectRefused(image(base('imagec-2', { numImages: n })), 'numImages', 'from 1 to 4');
  });

  it('refuses unknown top-level fields by name, and trained-only fields', () => {
    expectRefused(image(base('imagea', { negativePrompt: 'x' })), 'negativePrompt', 'negativePrompt');
    expectRefused(image(base('imagea', { width: 512 })), 'width', 'only by trained models');
  });

  it('refuses a video model sent for image generation', () => {
    expectRefused(image(base('videoa-3.1')), 'modelID', 'video model');
  });
});

describe('reference image URLs (spec §8 limits)', () => {
  // The spec's caps, one per model of the table: a model added to the table without its cap here fails.
  const SPEC_CAPS: Record<string, number> = {
    imagea: 3,
    'imagea-pro': 14,
    'imagea-2': 14,
    imageb: 10,
    'imageb-4_5': 10,
    'imageb-5-lite': 10,
    'imagec-2': 10,
  };
  const limits = PUBLIC_IMAGE_MODEL_IDS.map((id): [string, number] => [id, SPEC_CAPS[id] ?? Number.NaN]);
  it('names the cap of every model in the table', () => {
    expect(Object.keys(SPEC_CAPS).sort()).toEqual([...PUBLIC_IMAGE_MODEL_IDS].sort());
  });
  it.each(limits)('%s accepts %i URLs and refuses one more', (id, max) => {
    expect(image(base(id, { referenceImageURLs: urls(max) }))).toEqual([]);
    expectRefused(
      image(base(id, { referenceImageURLs: urls(max + 1) })),
      'referenceImageURLs',
      `${id} accepts at most ${max} reference URLs; you gave ${max + 1}`,
    );
  });

  it.each(['ftp://x/y.png', 'not a url', 'javascript:alert(1)', 7, null, ' https://a/b.png'])(
    'refuses item %j',
    (u) => {
      expectRefused(
        image(base('imagea', { referenceImageURLs: ['https://ok.example/a.png', u] })),
        'referenceImageURLs[1]',
      );
    },
  );

  it('refuses a non-array', () => {
    expectRefused(image(base('imagea', { referenceImageURLs: 'https://a/b.png' })), 'referenceImageURLs');
  });
});

describe('option groups: only the model’s own, never mixed', () => {
  it.each(PUBLIC_IMAGE_MODEL_IDS)('%s refuses every foreign group', (id) => {
    for (const other of ['imagea', 'imageb', 'imagec'].filter((g) => g !== GROUP(id))) {
      const problems = image(base(id, { options: { [GROUP(id)]: {}, [other]: {} } }));
      expectRefused(
        problems,
        `options.${other}`,
        `options.${other} is not accepted by ${id}: send only options.${GROUP(id)}`,
      );
    }
  });

  it('refuses unknown groups, non-object options and non-object groups', () => {
    expectRefused(image(base('imagea', { options: { videoa: {} } })), 'options.videoa');
    expectRefused(image(base('imagea', { options: [] })), 'options');
    expectRefused(image(base('imagea', { options: { imagea: 'big' } })), 'options.imagea');
  });

  it('refuses a setting that belongs to another family', () => {
    expectRefused(image(withOptions('imagea', { optimizeMode: 'fast' })), 'options.imagea.optimizeMode');
    expectRefused(image(withOptions('imageb', { safetyFilterLevel: 'OFF' })), 'options.imageb.safetyFilterLevel');
  });
});

describe('every setting of every table', () => {
  // Walks the rule table itself, so a new family, model or setting is accepted once and refused once here.
  const cases = PUBLIC_IMAGE_MODEL_IDS.flatMap((id) =>
    Object.entries(PUBLIC_IMAGE_MODELS[id].options).map(([setting, spec]) => ({ id, setting, spec })),
  );
  it.each(cases)('$id: $setting takes its own values and refuses others', ({ id, setting, spec }) => {
    const good = spec.kind === 'enum' ? spec.values : [spec.min, spec.max];
    const bad = spec.kind === 'enum' ? ['not-a-value', 1] : [spec.max + 1, 'x'];
    for (const value of good) expect(image(withOptions(id, { [setting]: value }))).toEqual([]);
    for (const value of bad)
      expectRefused(image(withOptions(id, { [setting]: value })), `options.${GROUP(id)}.${setting}`, id);
  });
});

describe('per-model settings table', () => {
  // [model, setting, accepted values, refused values]
  const rows: [string, string, unknown[], unknown[]][] = [
    ['imagea', 'imageSize', ['1K', '2K', '4K'], ['3K', '8K', '1k', 1]],
    ['imagea-pro', 'imageSize', ['1K', '2K', '4K'], ['3K']],
    ['imagea-2', 'imageSize', ['1K', '2K', '4K'], ['3K']],
    ['imageb', 'imageSize', ['1K', '2K', '4K'], ['3K']],
    ['imageb-4_5', 'imageSize', ['2K', '4K'], ['1K', '3K']],
    ['imageb-5-lite', 'imageSize', ['2K', '3K'], ['1K', '4K']],
    ['imagec-2', 'imageSize', ['1K', '2K', '4K'], ['3K']],
    [
      'imagea',
      'safetyFilterLevel',
      ['OFF', 'BLOCK_NONE', 'BLOCK_ONLY_HIGH', 'BLOCK_MEDIUM_AND_ABOVE', 'BLOCK_LOW_AND_ABOVE'],
      ['BLOCK_ALL', 'off'],
    ],
    ['imagea-pro', 'safetyFilterLevel', ['BLOCK_ONLY_HIGH'], ['HIGH']],
    ['imagea-2', 'safetyFilterLevel', ['BLOCK_NONE'], [true]],
    ['imagea', 'sequentialMode', ['disabled', 'sequential'], ['auto']],
    ['imagea-pro', 'sequentialMode', ['sequential'], ['auto']],
    ['imagea-2', 'sequentialMode', ['disabled'], ['auto']],
    ['imageb', 'sequentialMode', ['auto', 'disabled'], ['sequential']],
    ['imageb-4_5', 'sequentialMode', ['auto', 'disabled'], ['sequential']],
    ['imageb-5-lite', 'sequentialMode', ['auto', 'disabled'], ['sequential']],
    ['imageb', 'optimizeMode', ['standard', 'fast'], ['turbo']],
    ['imageb-4_5', 'optimizeMode', ['standard'], ['fast']],
    ['imageb-5-lite', 'optimizeMode', ['standard'], ['fast']],
    ['imagec-2', 'quality', ['auto', 'high', 'medium', 'low'], ['ultra']],
    ['imagec-2', 'background', ['auto', 'opaque'], ['transparent']],
    ['imagec-2', 'moderation', ['auto', 'low'], ['high']],
    ['imagec-2', 'outputFormat', ['png', 'jpeg'], ['webp', 'jpg']],
    ['imagec-2', 'outputCompression', [0, 55, 100], [-1, 101, 50.5, '80']],
  ];
  for (const [id, setting, good, bad] of rows) {
    it.each(good)(`${id} accepts ${setting} %j`, (value) => {
      expect(image(withOptions(id, { [setting]: value }))).toEqual([]);
    });
    it.each(bad)(`${id} refuses ${setting} %j`, (value) => {
      expectRefused(image(withOptions(id, { [setting]: value })), `options.${GROUP(id)}.${setting}`, id);
    });
  }

  it('imagec-2 outputCompression is valid only with jpeg output (the default)', () => {
    expect(image(withOptions('imagec-2', { outputFormat: 'jpeg', outputCompression: 80 }))).toEqual([]);
    expect(image(withOptions('imagec-2', { outputCompression: 80 }))).toEqual([]);
    expectRefused(
      image(withOptions('imagec-2', { outputFormat: 'png', outputCompression: 80 })),
      'options.imagec.outputCompression',
      'only when outputFormat is jpeg',
    );
  });

  it('imagec-2 refuses a size/ratio combination past the 3840 px edge', () => {
    expect(image(withOptions('imagec-2', { imageSize: '4K' }, { aspectRatio: '16:9' }))).toEqual([]);
    expect(image(withOptions('imagec-2', { imageSize: '2K' }, { aspectRatio: '21:9' }))).toEqual([]);
    expectRefused(
      image(withOptions('imagec-2', { imageSize: '4K' }, { aspectRatio: '21:9' })),
      'options.imagec.imageSize',
      '3840',
    );
  });
});

describe('trained-model body', () => {
  const full = {
    modelID: 'mdl_123',
    prompt: 'portrait',
    preset: 'studio',
    inputImageId: 'img_9',
    width: 1024,
    height: 768,
    numImages: 2,
    steps: 30,
    seed: 42,
    runType: 'fast',
    enhanceFace: true,
    styleStrength: 0.6,
  };

  it('accepts a full body and each of prompt/preset/inputImageId alone', () => {
    expect(image(full)).toEqual([]);
    expect(image({ modelID: 'm', prompt: 'p' })).toEqual([]);
    expect(image({ modelID: 'm', preset: 'studio' })).toEqual([]);
    expect(image({ modelID: 'm', inputImageId: 'img_1' })).toEqual([]);
  });

  it('needs at least one of prompt, preset, inputImageId', () => {
    expectRefused(image({ modelID: 'm', width: 512 }), 'prompt', 'at least one of prompt, preset or inputImageId');
    expectRefused(image({ modelID: 'm', prompt: '' }), 'prompt');
  });

  // [field, accepted edge values, refused values]
  const rows: [string, unknown[], unknown[]][] = [
    ['prompt', ['x'], [1, null]],
    ['preset', ['studio'], [true]],
    ['inputImageId', ['img_1'], [5]],
    ['width', [256, 2048], [255, 2049, 512.5, '512']],
    ['height', [256, 2048], [100, 4096, '1024']],
    ['numImages', [1, 4], [0, 5, 1.5]],
    ['steps', [1, 100], [0, 101, '30']],
    ['seed', [0, 4294967295], [-1, 4294967296, 1.1]],
    ['runType', ['quality'], ['', 3]],
    ['enhanceFace', [true, false], ['true', 1]],
    ['styleStrength', [0, 0.5, 1], [-0.1, 1.1, '0.5', Number.NaN]],
  ];
  for (const [field, good, bad] of rows) {
    it.each(good)(`accepts ${field} %j`, (value) => {
      expect(image({ modelID: 'm', prompt: 'p', [field]: value })).toEqual([]);
    });
    it.each(bad)(`refuses ${field} %j`, (value) => {
      expectRefused(image({ ...full, [field]: value }), field);
    });
  }

  it('refuses public-only and unknown fields by name', () => {
    expectRefused(image({ ...full, aspectRatio: '1:1' }), 'aspectRatio', 'only by public image models');
    expectRefused(image({ ...full, options: { imagea: {} } }), 'options');
    expectRefused(image({ ...full, guidance: 7 }), 'guidance', 'guidance');
  });
});
