// Any JSON garbage (wrong types, null, arrays, prototype keys) gets problems back, never an exception.
import { describe, expect, it } from 'vitest';
import type { GenerationRequest } from './common.ts';
import { PUBLIC_IMAGE_MODEL_IDS, VIDEO_MODEL_IDS, normalize, notices, validate } from './index.ts';
import { IMAGE_OPTION_GROUPS } from './image-models.ts';
import { VIDEO_OPTION_GROUPS } from './video-models.ts';

const JUNK: unknown[] = [
  null,
  undefined,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  true,
  [],
  [null],
  [{}],
  ['https://a/b.png'],
  {},
  { url: 7, role: null },
  { imagea: null },
  JSON.parse('{"__proto__": {"polluted": true}}'),
];
const FIELDS = [
  'modelID',
  'prompt',
  'preset',
  'aspectRatio',
  'numImages',
  'numVideos',
  'referenceImageURLs',
  'referenceImages',
  'referenceVideos',
  'elementIDs',
  'options',
  'width',
  'styleStrength',
  'imageID',
];
const MODELS = [...PUBLIC_IMAGE_MODEL_IDS, ...VIDEO_MODEL_IDS, 'trained-1', 'constructor', '__proto__', 'toString'];
const KINDS = ['image', 'video', 'upscale'] as const;

function bodies(): unknown[] {
  const out: unknown[] = [...JUNK];
  for (const modelID of MODELS) {
    for (const field of FIELDS) {
      for (const junk of JUNK) out.push({ modelID, prompt: 'p', [field]: junk });
    }
    for (const group of [...IMAGE_OPTION_GROUPS, ...VIDEO_OPTION_GROUPS]) {
      for (const junk of JUNK) {
        out.push({ modelID, prompt: 'p', options: { [group]: junk } });
        out.push({ modelID, prompt: 'p', options: { [group]: { duration: junk, imageSize: junk, draftMode: junk } } });
      }
    }
    out.push(
      JSON.parse(`{"modelID": ${JSON.stringify(modelID)}, "prompt": "p", "__proto__": {"x": 1}, "constructor": 1}`),
    );
  }
  return out;
}

describe('garbage never throws', () => {
  it('validate, notices and normalize survive every malformed body of every kind', () => {
    let checked = 0;
    for (const kind of KINDS) {
      for (const body of bodies()) {
        const request = { kind, body } as GenerationRequest;
        const problems = validate(request);
        expect(Array.isArray(problems)).toBe(true);
        for (const p of problems) expect(typeof p.field === 'string' && p.message.length > 0).toBe(true);
        expect(() => notices(request)).not.toThrow();
        expect(() => validate(normalize(request))).not.toThrow();
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each([null, undefined, 5, 'image', [], {}, { kind: 'audio', body: {} }, { kind: null }])(
    'a malformed request %j is refused as a whole',
    (request) => {
      const r = request as GenerationRequest;
      expect(validate(r)).toEqual([expect.objectContaining({ field: '' })]);
      expect(notices(r)).toEqual([]);
      expect(normalize(r)).toBe(r);
    },
  );

  it('refuses junk bodies rather than accepting them', () => {
    for (const kind of KINDS) {
      for (const body of JUNK) expect(validate({ kind, body } as GenerationRequest).length).toBeGreaterThan(0);
    }
  });
});
