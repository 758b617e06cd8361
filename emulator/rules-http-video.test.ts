// The video request rules of spec §4/§8 over real HTTP: for each rule, bodies POST /videos/generation must
// accept (200 OK, a queued job) and bodies it must refuse (400 NOK naming exactly the refused field).
// Values are written out from the spec (and the README's choices), not read from the shared rule tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './index.ts';
import {
  Api,
  MINUTE,
  expectedVerdict,
  postVerdict,
  smallPng,
  startTestEmulator,
  type RuleCase,
} from './test-support.ts';

type Body = Record<string, unknown>;

let emulator: RunningEmulator;
let api: Api;
/** Stand-ins in table bodies for the caller's own image and video ids (elementIDs must be the caller's). */
const OWN_IMAGE = '<own image>';
const OWN_VIDEO = '<own video>';
const ownIds = new Map<string, string>();

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
  await api.ok('GET', '/models');
  const image = await api.upload('free-general', 'auxiliaryType', await smallPng());
  ownIds.set(OWN_IMAGE, image.body.result.id as string);
  const { jobId } = await api.ok<{ jobId: string }>('POST', '/videos/generation', {
    modelID: 'videod-1.5',
    prompt: 'x',
  });
  emulator.control.advanceClock(5 * MINUTE);
  const job = await api.ok<{ videos: { id: string }[] }>('GET', `/jobs/${jobId}`);
  ownIds.set(OWN_VIDEO, job.videos[0]?.id ?? '');
});
afterAll(() => emulator.close());

const ok = (name: string, body: Body): RuleCase => ({ name, body });
const no = (name: string, body: Body, refused: string): RuleCase => ({ name, body, refused });

/** A valid body for `modelID` plus `extra`. */
const vid = (modelID: string, extra: Body = {}): Body => ({ modelID, prompt: 'a harbour at dawn', ...extra });
/** `options` holding only one group (videoa, videob, videoc or videod). */
const own = (group: string, settings: Body): Body => ({ options: { [group]: settings } });
const image = (role: string, extra: Body = {}): Body => ({ url: `https://example.com/${role}.png`, role, ...extra });
const images = (count: number): Body[] => Array.from({ length: count }, () => image('reference_image'));
const video = (extra: Body = {}): Body => ({ url: 'https://example.com/clip.mp4', role: 'reference_video', ...extra });
const videos = (count: number): Body[] => Array.from({ length: count }, () => video());

const VIDEOA: RuleCase[] = [
  ok(
    'videoa duration 8 with a reference_image',
    vid('videoa-3.1', { referenceImages: images(1), ...own('videoa', { duration: 8 }) }),
  ),
  ok('videoa reference_image with the default duration', vid('videoa-3.1-fast', { referenceImages: images(1) })),
  no(
    'videoa duration 6 with a reference_image',
    vid('videoa-3.1', { referenceImages: images(1), ...own('videoa', { duration: 6 }) }),
    'options.videoa.duration',
  ),
  ok(
    'videoa duration 6 with a first_frame only',
    vid('videoa-3.1', { referenceImages: [image('first_frame')], ...own('videoa', { duration: 6 }) }),
  ),
  no('videoa duration 5', vid('videoa-3.1', own('videoa', { duration: 5 })), 'options.videoa.duration'),
  ok('videoa 3 reference_images', vid('videoa-3.1', { referenceImages: images(3) })),
  no('videoa 4 reference_images', vid('videoa-3.1', { referenceImages: images(4) }), 'referenceImages'),
  no(
    'two first_frames',
    vid('videoa-3.1', { referenceImages: [image('first_frame'), image('first_frame')] }),
    'referenceImages',
  ),
  no('videoa reference videos', vid('videoa-3.1', { referenceVideos: videos(1) }), 'referenceVideos'),
  ok('videoa 9:16 at 1080p', vid('videoa-3.1', own('videoa', { aspectRatio: '9:16', resolution: '1080p' }))),
  no('videoa aspectRatio 1:1', vid('videoa-3.1', own('videoa', { aspectRatio: '1:1' })), 'options.videoa.aspectRatio'),
  no('videoa resolution 480p', vid('videoa-3.1', own('videoa', { resolution: '480p' })), 'options.videoa.resolution'),
  ok('seed 4294967295', vid('videoa-3.1', own('videoa', { seed: 4294967295 }))),
  no('seed 4294967296', vid('videoa-3.1', own('videoa', { seed: 4294967296 })), 'options.videoa.seed'),
];

const VIDEOB: RuleCase[] = [
  ok('videob-1.5-pro duration -1 (auto)', vid('videob-1.5-pro', own('videob', { duration: -1 }))),
  ok('videob-1.5-pro duration 12', vid('videob-1.5-pro', own('videob', { duration: 12 }))),
  no('videob-1.5-pro duration 13', vid('videob-1.5-pro', own('videob', { duration: 13 })), 'options.videob.duration'),
  no('videob-1.5-pro reference videos', vid('videob-1.5-pro', { referenceVideos: videos(1) }), 'referenceVideos'),
  no('videob-2.0 draftMode', vid('videob-2.0', own('videob', { draftMode: true })), 'options.videob.draftMode'),
  ok('videob-2.0 duration 15, ratio adaptive', vid('videob-2.0', own('videob', { duration: 15, ratio: 'adaptive' }))),
  no('videob-2.0 duration 16', vid('videob-2.0', own('videob', { duration: 16 })), 'options.videob.duration'),
  no('videob-2.0 ratio 5:4', vid('videob-2.0', own('videob', { ratio: '5:4' })), 'options.videob.ratio'),
  ok('videob-2.0 9 reference_images', vid('videob-2.0', { referenceImages: images(9) })),
  no('videob-2.0 10 reference_images', vid('videob-2.0', { referenceImages: images(10) }), 'referenceImages'),
  ok('videob-2.0 3 reference videos', vid('videob-2.0', { referenceVideos: videos(3) })),
  no('videob-2.0 4 reference videos', vid('videob-2.0', { referenceVideos: videos(4) }), 'referenceVideos'),
];

/** 2 elements + 1 or 2 reference images + 1 reference video: 4 or 5 items in all. */
const items = (imageCount: number): Body => ({
  elementIDs: [OWN_IMAGE, OWN_VIDEO],
  referenceImages: [image('first_frame'), ...images(imageCount - 1)],
  referenceVideos: videos(1),
});

const VIDEOC: RuleCase[] = [
  ...['videoc-video-standard', 'videoc-video-pro', 'videoc-motion-standard', 'videoc-motion-pro'].flatMap((model) => [
    ok(`${model} 4 items in all`, vid(model, items(1))),
    no(`${model} 5 items in all`, vid(model, items(2)), 'elementIDs'),
  ]),
  ok('videoc-video 4 reference_images', vid('videoc-video-pro', { referenceImages: images(4) })),
  ok(
    'videoc-video duration 3, 1:1, audio',
    vid('videoc-video-standard', own('videoc', { duration: 3, aspectRatio: '1:1', generateAudio: true })),
  ),
  no(
    'videoc-video duration 16',
    vid('videoc-video-standard', own('videoc', { duration: 16 })),
    'options.videoc.duration',
  ),
  no(
    'videoc-video aspectRatio 4:3',
    vid('videoc-video-pro', own('videoc', { aspectRatio: '4:3' })),
    'options.videoc.aspectRatio',
  ),
  no(
    'videoc-video characterOrientation',
    vid('videoc-video-pro', own('videoc', { characterOrientation: 'image' })),
    'options.videoc.characterOrientation',
  ),
  ...Object.entries({ duration: 5, aspectRatio: '16:9', generateAudio: false }).map(([setting, value]) =>
    no(
      `motion refuses ${setting}`,
      vid('videoc-motion-pro', own('videoc', { [setting]: value })),
      `options.videoc.${setting}`,
    ),
  ),
  ok(
    'motion characterOrientation image, keepOriginalSound false',
    vid('videoc-motion-standard', own('videoc', { characterOrientation: 'image', keepOriginalSound: false })),
  ),
  no(
    'motion characterOrientation audio',
    vid('videoc-motion-standard', own('videoc', { characterOrientation: 'audio' })),
    'options.videoc.characterOrientation',
  ),
];

const VIDEOD: RuleCase[] = [
  ...[1, 15].map((duration) => ok(`videod duration ${duration}`, vid('videod-1.5', own('videod', { duration })))),
  ...[0, 16].map((duration) =>
    no(`videod duration ${duration}`, vid('videod-1.5', own('videod', { duration })), 'options.videod.duration'),
  ),
  ...['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'].map((aspectRatio) =>
    ok(`videod aspectRatio ${aspectRatio}`, vid('videod-1.5', own('videod', { aspectRatio }))),
  ),
  no(
    'videod aspectRatio 21:9',
    vid('videod-1.5', own('videod', { aspectRatio: '21:9' })),
    'options.videod.aspectRatio',
  ),
  ...['480p', '720p'].map((resolution) => ok(`videod ${resolution}`, vid('videod-1.5', own('videod', { resolution })))),
  no('videod 1080p', vid('videod-1.5', own('videod', { resolution: '1080p' })), 'options.videod.resolution'),
  ok(
    'videod first and last frame',
    vid('videod-1.5', { referenceImages: [image('first_frame'), image('last_frame')] }),
  ),
  no('videod reference_image', vid('videod-1.5', { referenceImages: images(1) }), 'referenceImages[0].role'),
];

const SHARED: RuleCase[] = [
  no(
    'containsHuman on a reference image',
    vid('videob-2.0', { referenceImages: [image('reference_image', { containsHuman: true })] }),
    'referenceImages[0].containsHuman',
  ),
  no(
    'duration on a reference video',
    vid('videob-2.0', { referenceVideos: [video({ duration: 4 })] }),
    'referenceVideos[0].duration',
  ),
  ok('elementIDs on videoc-video', vid('videoc-video-standard', { elementIDs: [OWN_IMAGE] })),
  ok('elementIDs on videoc-motion', vid('videoc-motion-pro', { elementIDs: [OWN_VIDEO] })),
  ...['videoa-3.1', 'videob-1.5-pro', 'videob-2.0', 'videod-1.5'].map((model) =>
    no(`elementIDs on ${model}`, vid(model, { elementIDs: [OWN_IMAGE] }), 'elementIDs'),
  ),
  no(
    'elementIDs that are not the caller’s',
    vid('videoc-video-pro', { elementIDs: [OWN_IMAGE, 'img_not_mine'] }),
    'elementIDs[1]',
  ),
  ok('numVideos 4', vid('videod-1.5', { numVideos: 4 })),
  no('numVideos 5', vid('videod-1.5', { numVideos: 5 }), 'numVideos'),
  no('numVideos 0', vid('videod-1.5', { numVideos: 0 }), 'numVideos'),
  no('prompt missing', { modelID: 'videod-1.5' }, 'prompt'),
  no(
    'videoa mixing in videob',
    vid('videoa-3.1', { options: { videoa: {}, videob: { duration: 4 } } }),
    'options.videob',
  ),
  no('videoc-motion with videod', vid('videoc-motion-pro', { options: { videod: { duration: 4 } } }), 'options.videod'),
];

/** The table body with the OWN_* stand-ins in elementIDs replaced by the real ids. */
const withOwnIds = (body: Body): Body =>
  Array.isArray(body.elementIDs)
    ? { ...body, elementIDs: body.elementIDs.map((id: unknown) => ownIds.get(id as string) ?? id) }
    : body;

describe.each([
  ['videoa', VIDEOA],
  ['videob', VIDEOB],
  ['videoc (video and motion)', VIDEOC],
  ['videod', VIDEOD],
  ['references, elements, counts and groups', SHARED],
])('POST /videos/generation over HTTP: %s', (_title, cases) => {
  it.each(cases)('$name', async ({ body, refused }) => {
    const { verdict, message } = await postVerdict(api, '/videos/generation', withOwnIds(body));
    expect(verdict, message).toEqual(expectedVerdict(refused));
  });
});

describe('POST /videos/generation over HTTP: what videob-1.5-pro runs', () => {
  it('drops reference_image inputs and renders draftMode at 480p', async () => {
    const body = vid('videob-1.5-pro', {
      referenceImages: [image('first_frame'), image('reference_image')],
      ...own('videob', { draftMode: true, resolution: '1080p' }),
    });
    const { jobId } = await api.ok<{ jobId: string }>('POST', '/videos/generation', body);
    emulator.control.advanceClock(5 * MINUTE);
    const job = await api.ok<{ videos: { id: string }[] }>('GET', `/jobs/${jobId}`);
    const { data } = await api.ok<{ data: { request: Body; options: Body } }>('GET', `/videos/${job.videos[0]?.id}`);
    expect(data.request.referenceImages).toEqual([image('first_frame')]);
    expect(data.request.options).toEqual({ videob: { draftMode: true, resolution: '480p' } });
    expect(data.options).toMatchObject({ draftMode: true, resolution: '480p' });
  });
});
