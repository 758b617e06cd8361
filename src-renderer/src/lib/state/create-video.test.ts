// The Create video form's state against the contract's own rules and a fake core: videoa's rule that a
// style reference needs 8 s, a motion model taking no duration, new images taking the first role with
// room, and a valid form sent once after the hold as the normalised request the core accepts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { normalize } from '@contract/rules/index.ts';
import { VIDEOA_REFERENCE_IMAGE_DURATION, videoRules } from '@contract/rules/video-models.ts';
import { fakeCore, installFakeCore, ok } from '../test-support/fake-core.ts';
import { jobRecord } from '../test-support/records.ts';

const core = fakeCore({ 'jobs:submit': (request) => ok(jobRecord({ localId: 77, kind: request.kind })) });
installFakeCore(core);
const { createVideo } = await import('./create-video.svelte.ts');
const { SEND_DELAY_MS } = await import('./queue.svelte.ts');

beforeEach(() => {
  createVideo.selectModel('videoa-3.1');
  createVideo.referenceImages = [];
  createVideo.prompt = '';
  createVideo.touched.reset();
  core.calls.length = 0;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the Create video form', () => {
  it(`refuses a style reference with videoa at any duration but ${VIDEOA_REFERENCE_IMAGE_DURATION} s`, () => {
    createVideo.setPrompt('a lighthouse in a storm');
    createVideo.setOption('duration', 6);
    createVideo.addImage('https://refs.example/first.png');
    createVideo.addImage('https://refs.example/style.png');
    createVideo.setImageRole(1, 'reference_image');
    expect(createVideo.referenceImages.map((r) => r.role)).toEqual(['first_frame', 'reference_image']);
    expect(createVideo.canGenerate).toBe(false);
    expect(createVideo.problems.some((p) => /duration/.test(p.field))).toBe(true);
    createVideo.setOption('duration', VIDEOA_REFERENCE_IMAGE_DURATION);
    expect(createVideo.problems).toEqual([]);
  });

  it('gives a motion model none of the options it refuses', () => {
    createVideo.selectModel('videoc-motion-pro');
    const refused = Object.keys(videoRules('videoc-motion-pro')?.refusedOptions ?? {});
    expect(refused).toContain('duration');
    const group = (createVideo.body['options'] as Record<string, Record<string, unknown>> | undefined)?.['videoc'];
    for (const name of refused) expect(group?.[name]).toBeUndefined();
  });

  it('sends a valid form once after the hold, normalised', async () => {
    vi.useFakeTimers();
    createVideo.setPrompt('slow waves on a pier at dawn');
    expect(createVideo.submit()).toBeNull();
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS);
    const sent = core.argsOf('jobs:submit');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      kind: 'video',
      body: { modelID: 'videoa-3.1', prompt: 'slow waves on a pier at dawn' },
    });
    const body = normalize({ kind: 'video', body: createVideo.body }).body as Record<string, unknown>;
    expect(Object.keys((sent[0]!.body as Record<string, unknown>)['options'] ?? {})).toEqual(
      Object.keys(body['options'] ?? {}),
    );
  });
});
