// Every row of the video tables (spec §4 families, §8 reference limits) accepted once and refused once.
import { describe, expect, it } from 'vitest';
import type { FieldProblem } from './common.ts';
import { VIDEO_MODEL_IDS, validate } from './index.ts';

const video = (body: unknown): FieldProblem[] => validate({ kind: 'video', body });

function expectRefused(problems: FieldProblem[], field: string, text?: string): void {
  const hit = problems.find((p) => p.field === field);
  expect(hit, `expected a problem on "${field}", got ${JSON.stringify(problems)}`).toBeDefined();
  if (text !== undefined) expect(hit?.message).toContain(text);
}

const GROUP: Record<string, string> = {
  'videoa-3.1': 'videoa',
  'videoa-3.1-fast': 'videoa',
  'videob-1.5-pro': 'videob',
  'videob-2.0': 'videob',
  'videoc-video-standard': 'videoc',
  'videoc-video-pro': 'videoc',
  'videoc-motion-standard': 'videoc',
  'videoc-motion-pro': 'videoc',
  'videod-1.5': 'videod',
};
const base = (modelID: string, extra: Record<string, unknown> = {}) => ({ modelID, prompt: 'a fox runs', ...extra });
const withOptions = (modelID: string, settings: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  base(modelID, { ...extra, options: { [GROUP[modelID]!]: settings } });
const img = (role: string, i = 0) => ({ url: `https://media.example/${role}-${i}.png`, role });
const imgs = (role: string, n: number) => Array.from({ length: n }, (_, i) => img(role, i));
const vids = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ url: `https://media.example/v${i}.mp4`, role: 'reference_video' }));

describe('video body: common fields', () => {
  it.each(VIDEO_MODEL_IDS)('%s accepts a minimal body', (id) => {
    expect(video(base(id))).toEqual([]);
    expect(video(base(id, { numVideos: 1 }))).toEqual([]);
  });

  it.each(['videoa-4', 'imagea', '', 7, null, 'constructor'])('refuses modelID %j', (id) => {
    expectRefused(video({ modelID: id, prompt: 'x' }), 'modelID', 'videoa-3.1');
  });

  it.each([undefined, '', '  ', 5, ['a']])('refuses prompt %j', (prompt) => {
    expectRefused(video({ modelID: 'videod-1.5', prompt }), 'prompt');
  });

  it.each([1, 4])('accepts numVideos %i', (n) => expect(video(base('videob-2.0', { numVideos: n }))).toEqual([]));
  it.each([0, -2, 1.5, '2', 5])('refuses numVideos %j', (n) => {
    expectRefused(video(base('videob-2.0', { numVideos: n })), 'numVideos');
  });

  it('refuses unknown top-level fields by name', () => {
    expectRefused(video(base('videoa-3.1', { duration: 8 })), 'duration', 'duration');
  });

  it('refuses backend-only preparation metadata', () => {
    const ref = { ...img('first_frame'), containsHuman: true };
    expectRefused(
      video(base('videoa-3.1', { referenceImages: [ref] })),
      'referenceImages[0].containsHuman',
      'backend-only',
    );
    const rv = { ...vids(1)[0], duration: 4.2 };
    expectRefused(video(base('videob-2.0', { referenceVideos: [rv] })), 'referenceVideos[0].duration', 'backend-only');
  });

  it('checks reference shape, url and role', () => {
    expectRefused(video(base('videoa-3.1', { referenceImages: ['https://a/b.png'] })), 'referenceImages[0]');
    expectRefused(
      video(base('videoa-3.1', { referenceImages: [{ url: 'nope', role: 'first_frame' }] })),
      'referenceImages[0].url',
    );
    expectRefused(video(base('videoa-3.1', { referenceImages: [img('middle_frame')] })), 'referenceImages[0].role');
    expectRefused(video(base('videoa-3.1', { referenceImages: {} })), 'referenceImages');
    expectRefused(video(base('videob-2.0', { referenceVideos: [img('reference_image')] })), 'referenceVideos[0].role');
    expectRefused(video(base('videob-2.0', { referenceVideos: 'x' })), 'referenceVideos');
  });

  it.each(VIDEO_MODEL_IDS)('%s refuses every foreign option group', (id) => {
    for (const other of ['videoa', 'videob', 'videoc', 'videod'].filter((g) => g !== GROUP[id])) {
      const problems = video(base(id, { options: { [other]: {} } }));
      expectRefused(problems, `options.${other}`, `send only options.${GROUP[id]}`);
    }
    expectRefused(video(base(id, { options: { imagea: {} } })), 'options.imagea');
    expectRefused(video(base(id, { options: 'x' })), 'options');
  });
});

describe('references each model accepts', () => {
  // [model, role, max accepted] — the refused case is max + 1 (or 1 when max is 0).
  const imageRoles: [string, string, number][] = [
    ['videoa-3.1', 'first_frame', 1],
    ['videoa-3.1-fast', 'last_frame', 1],
    ['videoa-3.1', 'reference_image', 3],
    ['videob-1.5-pro', 'first_frame', 1],
    ['videob-1.5-pro', 'last_frame', 1],
    ['videob-2.0', 'reference_image', 9],
    ['videob-2.0', 'first_frame', 1],
    ['videoc-video-pro', 'reference_image', 4],
    ['videoc-video-standard', 'first_frame', 1],
    ['videoc-motion-pro', 'reference_image', 4],
    ['videod-1.5', 'first_frame', 1],
    ['videod-1.5', 'last_frame', 1],
    ['videod-1.5', 'reference_image', 0],
  ];
  it.each(imageRoles)('%s takes at most %s × %i', (id, role, max) => {
    if (max > 0) expect(video(base(id, { referenceImages: imgs(role, max) }))).toEqual([]);
    const problems = video(base(id, { referenceImages: imgs(role, max + 1) }));
    expect(problems.some((p) => p.field.startsWith('referenceImages') && p.message.includes(id))).toBe(true);
  });

  it('videob-1.5-pro accepts reference_image inputs (the service drops them; notices say so)', () => {
    expect(video(base('videob-1.5-pro', { referenceImages: imgs('reference_image', 2) }))).toEqual([]);
  });

  const videoLimits: [string, number][] = [
    ['videob-2.0', 3],
    ['videoc-video-standard', 4],
    ['videoc-motion-standard', 4],
    ['videoa-3.1', 0],
    ['videob-1.5-pro', 0],
    ['videod-1.5', 0],
  ];
  it.each(videoLimits)('%s takes at most %i reference videos', (id, max) => {
    if (max > 0) expect(video(base(id, { referenceVideos: vids(max) }))).toEqual([]);
    expectRefused(video(base(id, { referenceVideos: vids(max + 1) })), 'referenceVideos');
  });

  it.each(['videoc-video-standard', 'videoc-video-pro', 'videoc-motion-standard', 'videoc-motion-pro'])(
    '%s takes elements within 4 items in total',
    (id) => {
      expect(video(base(id, { elementIDs: ['el1', 'el2', 'el3', 'el4'] }))).toEqual([]);
      expect(
        video(
          base(id, { elementIDs: ['el1', 'el2'], referenceImages: [img('first_frame')], referenceVideos: vids(1) }),
        ),
      ).toEqual([]);
      expectRefused(
        video(
          base(id, {
            elementIDs: ['el1', 'el2'],
            referenceImages: imgs('reference_image', 2),
            referenceVideos: vids(1),
          }),
        ),
        'elementIDs',
        'at most 4 elements and references in total; you gave 5',
      );
      // Without elements, the refusal names a field that was sent.
      expectRefused(
        video(base(id, { referenceImages: imgs('reference_image', 3), referenceVideos: vids(2) })),
        'referenceVideos',
        'you gave 5',
      );
      expectRefused(video(base(id, { elementIDs: ['el1', ''] })), 'elementIDs[1]');
      expectRefused(video(base(id, { elementIDs: 'el1' })), 'elementIDs');
    },
  );

  it.each(['videoa-3.1', 'videob-2.0', 'videod-1.5'])('%s refuses elementIDs', (id) => {
    expectRefused(video(base(id, { elementIDs: ['el1'] })), 'elementIDs', 'only the videoc models');
  });
});

describe('per-family settings tables', () => {
  // [model, setting, accepted values, refused values]
  const rows: [string, string, unknown[], unknown[]][] = [
    ['videoa-3.1', 'aspectRatio', ['16:9', '9:16'], ['1:1', '4:3']],
    ['videoa-3.1-fast', 'aspectRatio', ['16:9', '9:16'], ['21:9']],
    ['videoa-3.1', 'duration', [4, 6, 8], [5, 10, '8', 8.5]],
    ['videoa-3.1-fast', 'duration', [4, 6, 8], [2]],
    ['videoa-3.1', 'resolution', ['720p', '1080p'], ['480p', '4k']],
    ['videoa-3.1', 'enhancePrompt', [true, false], ['yes']],
    ['videoa-3.1', 'generateAudio', [true, false], [0]],
    ['videoa-3.1', 'negativePrompt', ['blur', ''], [12]],
    ['videoa-3.1', 'seed', [0, 123456], [-1, 1.5, '7']],
    ['videob-1.5-pro', 'resolution', ['480p', '720p', '1080p'], ['360p']],
    ['videob-1.5-pro', 'ratio', ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'], ['2:3', 'auto']],
    ['videob-1.5-pro', 'duration', [-1, 4, 12], [0, 3, 13, -2, 5.5]],
    ['videob-1.5-pro', 'draftMode', [true, false], ['on']],
    ['videob-1.5-pro', 'generateAudio', [true], ['true']],
    ['videob-1.5-pro', 'returnLastFrame', [false], [1]],
    ['videob-1.5-pro', 'seed', [99], [1e20]],
    ['videob-2.0', 'resolution', ['480p', '1080p'], ['2160p']],
    ['videob-2.0', 'ratio', ['adaptive', '21:9'], ['5:4']],
    ['videob-2.0', 'duration', [4, 15], [-1, 3, 16]],
    ['videob-2.0', 'generateAudio', [false], [null]],
    ['videob-2.0', 'returnLastFrame', [true], ['no']],
    ['videob-2.0', 'seed', [1], [-5]],
    ['videoc-video-standard', 'duration', [3, 10, 15], [2, 16, 7.5]],
    ['videoc-video-pro', 'aspectRatio', ['16:9', '9:16', '1:1'], ['4:3']],
    ['videoc-video-pro', 'generateAudio', [true, false], ['false']],
    ['videoc-motion-standard', 'characterOrientation', ['image', 'video'], ['left']],
    ['videoc-motion-pro', 'keepOriginalSound', [true, false], ['yes']],
    ['videod-1.5', 'duration', [1, 8, 15], [0, 16, 2.5]],
    ['videod-1.5', 'aspectRatio', ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'], ['21:9']],
    ['videod-1.5', 'resolution', ['480p', '720p'], ['1080p']],
  ];
  for (const [id, setting, good, bad] of rows) {
    it.each(good)(`${id} accepts ${setting} %j`, (value) => {
      expect(video(withOptions(id, { [setting]: value }))).toEqual([]);
    });
    it.each(bad)(`${id} refuses ${setting} %j`, (value) => {
      expectRefused(video(withOptions(id, { [setting]: value })), `options.${GROUP[id]}.${setting}`, id);
    });
  }

  it.each(['videoa-3.1', 'videoa-3.1-fast'])('%s needs duration 8 with a reference_image', (id) => {
    const refs = { referenceImages: [img('reference_image')] };
    expect(video(withOptions(id, { duration: 8 }, refs))).toEqual([]);
    expect(video(base(id, refs))).toEqual([]); // the default duration is 8
    expect(video(withOptions(id, { duration: 4 }, { referenceImages: [img('first_frame')] }))).toEqual([]);
    expectRefused(
      video(withOptions(id, { duration: 6 }, refs)),
      'options.videoa.duration',
      `duration must be 8 when a reference_image is used with ${id}`,
    );
  });

  it.each(['videoa-3.1', 'videob-2.0', 'videoc-video-pro', 'videod-1.5'])(
    '%s refuses draftMode (videob-1.5-pro only)',
    (id) => {
      expectRefused(
        video(withOptions(id, { draftMode: true })),
        `options.${GROUP[id]}.draftMode`,
        'only by videob-1.5-pro',
      );
    },
  );

  it.each(['videoc-motion-standard', 'videoc-motion-pro'])('%s refuses duration, aspectRatio, generateAudio', (id) => {
    for (const [setting, value] of [
      ['duration', 5],
      ['aspectRatio', '16:9'],
      ['generateAudio', true],
    ] as const) {
      expectRefused(video(withOptions(id, { [setting]: value })), `options.videoc.${setting}`, `not accepted by ${id}`);
    }
  });

  it('videoc video models refuse the motion settings', () => {
    expectRefused(
      video(withOptions('videoc-video-pro', { keepOriginalSound: true })),
      'options.videoc.keepOriginalSound',
    );
  });
});
