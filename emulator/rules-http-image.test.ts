// The image request rules of spec §4/§8 over real HTTP: for each rule, bodies POST /images/generation must
// accept (200 OK, a queued job) and bodies it must refuse (400 NOK naming exactly the refused field).
// Values are written out from the spec (and the README's choices), not read from the shared rule tables,
// so a wrong table fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './index.ts';
import { Api, MINUTE, expectedVerdict, postVerdict, startTestEmulator, type RuleCase } from './test-support.ts';

type Body = Record<string, unknown>;

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
  await api.ok('GET', '/models'); // adds the ready built-in trained model free-general
});
afterAll(() => emulator.close());

const ok = (name: string, body: Body): RuleCase => ({ name, body });
const no = (name: string, body: Body, refused: string): RuleCase => ({ name, body, refused });

/** A valid public-model body plus `extra`. */
const pub = (modelID: string, extra: Body = {}): Body => ({ modelID, prompt: 'a lighthouse at dusk', ...extra });
/** A valid trained-model body (built-in free-general) plus `extra`. */
const trained = (extra: Body = {}): Body => ({ modelID: 'free-general', prompt: 'a portrait', ...extra });
/** A model's option group: imagea* → imagea, imageb* → imageb, imagec-2 → imagec (a group name maps to itself). */
const groupOf = (modelID: string): string => modelID.slice(0, 6);
/** `options` holding only the model's own group. */
const own = (modelID: string, settings: Body): Body => ({ options: { [groupOf(modelID)]: settings } });
const urls = (count: number): string[] => Array.from({ length: count }, (_, i) => `https://example.com/ref-${i}.png`);

const IMAGEC_SIZE: RuleCase[] = [
  ok(
    'imagec-2 4K at 16:9 (3840×2160)',
    pub('imagec-2', { aspectRatio: '16:9', ...own('imagec-2', { imageSize: '4K' }) }),
  ),
  ok('imagec-2 2K at 21:9', pub('imagec-2', { aspectRatio: '21:9', ...own('imagec-2', { imageSize: '2K' }) })),
  no(
    'imagec-2 4K at 21:9 (long edge over 3840)',
    pub('imagec-2', { aspectRatio: '21:9', ...own('imagec-2', { imageSize: '4K' }) }),
    'options.imagec.imageSize',
  ),
];

const OUTPUT_COMPRESSION: RuleCase[] = [
  ok('outputCompression with jpeg', pub('imagec-2', own('imagec-2', { outputFormat: 'jpeg', outputCompression: 80 }))),
  ok('outputCompression with the default format', pub('imagec-2', own('imagec-2', { outputCompression: 0 }))),
  no(
    'outputCompression with png',
    pub('imagec-2', own('imagec-2', { outputFormat: 'png', outputCompression: 80 })),
    'options.imagec.outputCompression',
  ),
  no(
    'outputCompression above 100',
    pub('imagec-2', own('imagec-2', { outputCompression: 101 })),
    'options.imagec.outputCompression',
  ),
];

const MAX_REFERENCE_URLS: Record<string, number> = {
  imagea: 3,
  'imagea-pro': 14,
  'imagea-2': 14,
  imageb: 10,
  'imageb-4_5': 10,
  'imageb-5-lite': 10,
  'imagec-2': 10,
};
const REFERENCE_URLS: RuleCase[] = Object.entries(MAX_REFERENCE_URLS).flatMap(([model, max]) => [
  ok(`${model} takes ${max} reference URLs`, pub(model, { referenceImageURLs: urls(max) })),
  no(
    `${model} refuses ${max + 1} reference URLs`,
    pub(model, { referenceImageURLs: urls(max + 1) }),
    'referenceImageURLs',
  ),
]);

const IMAGE_SIZES: Record<string, { accepted: string[]; refused: string[] }> = {
  imagea: { accepted: ['1K', '2K', '4K'], refused: ['3K'] },
  'imagea-pro': { accepted: ['1K', '2K', '4K'], refused: ['3K'] },
  'imagea-2': { accepted: ['1K', '2K', '4K'], refused: ['3K'] },
  imageb: { accepted: ['1K', '2K', '4K'], refused: ['3K'] },
  'imageb-4_5': { accepted: ['2K', '4K'], refused: ['1K', '3K'] },
  'imageb-5-lite': { accepted: ['2K', '3K'], refused: ['1K', '4K'] },
  'imagec-2': { accepted: ['1K', '2K', '4K'], refused: ['3K'] },
};
const SIZES: RuleCase[] = Object.entries(IMAGE_SIZES).flatMap(([model, { accepted, refused }]) => [
  ...accepted.map((size) => ok(`${model} imageSize ${size}`, pub(model, own(model, { imageSize: size })))),
  ...refused.map((size) =>
    no(
      `${model} refuses imageSize ${size}`,
      pub(model, own(model, { imageSize: size })),
      `options.${groupOf(model)}.imageSize`,
    ),
  ),
]);

const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
const SAFETY_LEVELS = ['OFF', 'BLOCK_NONE', 'BLOCK_ONLY_HIGH', 'BLOCK_MEDIUM_AND_ABOVE', 'BLOCK_LOW_AND_ABOVE'];

const ENUMS: RuleCase[] = [
  ...ASPECT_RATIOS.map((ratio) => ok(`aspectRatio ${ratio}`, pub('imageb', { aspectRatio: ratio }))),
  no('aspectRatio 5:3', pub('imageb', { aspectRatio: '5:3' }), 'aspectRatio'),
  ...SAFETY_LEVELS.map((level) =>
    ok(`safetyFilterLevel ${level}`, pub('imagea-pro', own('imagea', { safetyFilterLevel: level }))),
  ),
  no(
    'safetyFilterLevel BLOCK_ALL',
    pub('imagea', own('imagea', { safetyFilterLevel: 'BLOCK_ALL' })),
    'options.imagea.safetyFilterLevel',
  ),
  no(
    'safetyFilterLevel on imageb',
    pub('imageb', own('imageb', { safetyFilterLevel: 'OFF' })),
    'options.imageb.safetyFilterLevel',
  ),
  ok('imagea sequentialMode disabled', pub('imagea', own('imagea', { sequentialMode: 'disabled' }))),
  ok('imagea-2 sequentialMode sequential', pub('imagea-2', own('imagea', { sequentialMode: 'sequential' }))),
  no(
    'imagea sequentialMode auto',
    pub('imagea', own('imagea', { sequentialMode: 'auto' })),
    'options.imagea.sequentialMode',
  ),
  ok('imageb sequentialMode auto', pub('imageb', own('imageb', { sequentialMode: 'auto' }))),
  ok('imageb-5-lite sequentialMode disabled', pub('imageb-5-lite', own('imageb', { sequentialMode: 'disabled' }))),
  no(
    'imageb sequentialMode sequential',
    pub('imageb', own('imageb', { sequentialMode: 'sequential' })),
    'options.imageb.sequentialMode',
  ),
  ok('imageb optimizeMode fast', pub('imageb', own('imageb', { optimizeMode: 'fast' }))),
  ok('imageb-4_5 optimizeMode standard', pub('imageb-4_5', own('imageb', { optimizeMode: 'standard' }))),
  no(
    'imageb-4_5 optimizeMode fast',
    pub('imageb-4_5', own('imageb', { optimizeMode: 'fast' })),
    'options.imageb.optimizeMode',
  ),
  no(
    'imageb-5-lite optimizeMode fast',
    pub('imageb-5-lite', own('imageb', { optimizeMode: 'fast' })),
    'options.imageb.optimizeMode',
  ),
];

const COUNTS_AND_PROMPTS: RuleCase[] = [
  ok('numImages 1', pub('imagea', { numImages: 1 })),
  ok('numImages 4', pub('imageb', { numImages: 4 })),
  no('numImages 0', pub('imagea', { numImages: 0 }), 'numImages'),
  no('numImages 5', pub('imagec-2', { numImages: 5 }), 'numImages'),
  no('numImages 2.5', pub('imagea', { numImages: 2.5 }), 'numImages'),
  ok('public prompt and preset', pub('imagea', { preset: 'cinematic-noir' })),
  no('public preset without prompt', { modelID: 'imageb', preset: 'cinematic-noir' }, 'prompt'),
  no('public empty prompt', pub('imagec-2', { prompt: '  ' }), 'prompt'),
  ok('trained preset without prompt', { modelID: 'free-general', preset: 'cinematic-noir' }),
  no('trained without prompt, preset or inputImageId', { modelID: 'free-general', seed: 3 }, 'prompt'),
];

const OPTION_GROUPS: RuleCase[] = [
  ok('imagea with its own group', pub('imagea', own('imagea', { imageSize: '2K' }))),
  no(
    'imagea mixing in imageb',
    pub('imagea', { options: { imagea: {}, imageb: { optimizeMode: 'fast' } } }),
    'options.imageb',
  ),
  no('imageb-4_5 with imagec', pub('imageb-4_5', { options: { imagec: { quality: 'high' } } }), 'options.imagec'),
  no('imagec-2 with imagea', pub('imagec-2', { options: { imagea: { imageSize: '1K' } } }), 'options.imagea'),
  no('trained with options', trained({ options: { imagea: {} } }), 'options'),
  no('public with trained-only steps', pub('imagea', { steps: 20 }), 'steps'),
];

/** Trained-model bounds are our choices (README): width/height 256–2048, steps 1–100, styleStrength 0–1, numImages 1–4. */
const TRAINED_BOUNDS: RuleCase[] = [
  ...[256, 2048].map((width) => ok(`trained width ${width}`, trained({ width }))),
  ...[255, 2049].map((width) => no(`trained width ${width}`, trained({ width }), 'width')),
  ok('trained height 2048', trained({ height: 2048 })),
  no('trained height 2049', trained({ height: 2049 }), 'height'),
  ...[1, 100].map((steps) => ok(`trained steps ${steps}`, trained({ steps }))),
  ...[0, 101].map((steps) => no(`trained steps ${steps}`, trained({ steps }), 'steps')),
  ...[0, 1].map((styleStrength) => ok(`trained styleStrength ${styleStrength}`, trained({ styleStrength }))),
  ...[-0.1, 1.01].map((styleStrength) =>
    no(`trained styleStrength ${styleStrength}`, trained({ styleStrength }), 'styleStrength'),
  ),
  ok('trained numImages 4', trained({ numImages: 4 })),
  no('trained numImages 5', trained({ numImages: 5 }), 'numImages'),
  ok('trained seed 4294967295', trained({ seed: 4294967295 })),
  no('trained seed -1', trained({ seed: -1 }), 'seed'),
];

describe.each([
  ['imagec-2 size resolution', IMAGEC_SIZE],
  ['imagec-2 outputCompression', OUTPUT_COMPRESSION],
  ['reference URL maxima', REFERENCE_URLS],
  ['imageSize per model', SIZES],
  ['aspectRatio, safetyFilterLevel, sequentialMode, optimizeMode', ENUMS],
  ['numImages and prompt', COUNTS_AND_PROMPTS],
  ['option groups', OPTION_GROUPS],
  ['trained-model bounds', TRAINED_BOUNDS],
])('POST /images/generation over HTTP: %s', (_title, cases) => {
  it.each(cases)('$name', async ({ body, refused }) => {
    const { verdict, message } = await postVerdict(api, '/images/generation', body);
    expect(verdict, message).toEqual(expectedVerdict(refused));
  });
});

describe('POST /images/generation over HTTP: forced values', () => {
  it('runs several imageb images with sequentialMode auto, whatever was sent', async () => {
    const body = pub('imageb', { numImages: 2, ...own('imageb', { sequentialMode: 'disabled' }) });
    const { jobId } = await api.ok<{ jobId: string }>('POST', '/images/generation', body);
    emulator.control.advanceClock(MINUTE);
    const job = await api.ok<{ images: { id: string }[] }>('GET', `/jobs/${jobId}`);
    const image = await api.ok<{ data: { request: Body } }>('GET', `/images/${job.images[0]?.id}`);
    expect(image.data.request).toMatchObject({ numImages: 2, options: { imageb: { sequentialMode: 'auto' } } });
  });
});
