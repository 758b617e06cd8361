// The one check of a generation request (core) and the client's wire guard: same rules, same words.
import { describe, expect, it } from 'vitest';
import { infoOf } from './test-support/local-checks.ts';
import type { GenerationRequest } from '../../contract/rules/index.ts';
import { checkedRequest, wireRefusal } from './generation-request.ts';

describe('checkedRequest', () => {
  it('returns the normalized request: only the chosen model option group is sent', () => {
    const checked = checkedRequest({
      kind: 'image',
      body: { modelID: 'imageb', prompt: 'a fox', numImages: 2, options: { imageb: { sequentialMode: 'disabled' } } },
    });
    expect(checked).toMatchObject({
      kind: 'image',
      body: { modelID: 'imageb', options: { imageb: { sequentialMode: 'auto' } } },
    });
  });

  it('throws validation with every field problem, in the rules’ words', () => {
    const info = infoOf(() =>
      checkedRequest({ kind: 'image', body: { modelID: 'imagea', prompt: 'x', numImages: 9, aspectRatio: '7:5' } }),
    );
    expect(info.code).toBe('validation');
    expect(info.fields?.map((f) => f.field).sort()).toEqual(['aspectRatio', 'numImages']);
    expect(info.message).toMatch(/^2 settings need attention: /);
  });

  it('checks upscaling and video bodies too', () => {
    expect(infoOf(() => checkedRequest({ kind: 'upscale', body: { imageID: '' } }))).toMatchObject({
      code: 'validation',
      field: 'imageID',
    });
    expect(infoOf(() => checkedRequest({ kind: 'video', body: { modelID: 'videoa-3.1' } }))).toMatchObject({
      code: 'validation',
      field: 'prompt',
    });
  });
});

describe('wireRefusal', () => {
  it('lets through any object body of a known kind: the rules are the core’s to apply', () => {
    expect(wireRefusal({ kind: 'image', body: { modelID: 'imagea', numImages: 9 } })).toBeNull();
  });

  it('refuses what cannot be sent, with the same message as the core’s check', () => {
    for (const request of [
      { kind: 'sound', body: {} },
      { kind: 'video', body: 'a fox' },
      null,
    ] as unknown as GenerationRequest[]) {
      const refused = wireRefusal(request);
      expect(refused).toMatchObject({ code: 'validation' });
      expect(refused).toEqual(infoOf(() => checkedRequest(request)));
    }
  });
});
