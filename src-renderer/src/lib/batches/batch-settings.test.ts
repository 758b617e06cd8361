// Create's form as a batch's shared settings: planned by the contract's own planner (the code the
// core runs for batches:plan), a row with only a prompt gives exactly the body Create would send.
import { describe, expect, it } from 'vitest';
import { planBatch } from '@contract/batch/batch-plan.ts';
import { readBatchCsv, readPromptList } from '@contract/batch/batch-source.ts';
import { batchSettingsOf, literalCell } from './batch-settings.ts';

const planned = (kind: 'image' | 'video', body: Record<string, unknown>, prompts = 'a tin robot') =>
  planBatch(readPromptList(prompts), batchSettingsOf(kind, body));

describe('batchSettingsOf', () => {
  it('a public image model: the planned body is the form body with the line as prompt', () => {
    const body = {
      modelID: 'imagec-2',
      prompt: 'the form prompt, not sent',
      preset: 'pst_cinematic01',
      aspectRatio: '16:9',
      numImages: 3,
      referenceImageURLs: ['https://example.com/a.png', 'https://example.com/b|c.png'],
      options: { imagec: { imageSize: '2K', outputFormat: 'jpeg', outputCompression: 80, background: 'auto' } },
    };
    const plan = planned('image', body);
    expect(plan.refused).toEqual([]);
    expect(plan.jobs).toHaveLength(1);
    expect(plan.jobs[0]!.body).toEqual({ ...body, prompt: 'a tin robot' });
  });

  it('a video model: references with roles, elements and the option group (its seed) survive', () => {
    const body = {
      modelID: 'videoa-3.1',
      numVideos: 2,
      referenceImages: [{ url: 'https://example.com/first.png', role: 'first_frame' }],
      options: { videoa: { duration: 6, generateAudio: true, seed: 42 } },
    };
    const plan = planned('video', body, 'a slow pan');
    expect(plan.jobs.map((j) => j.kind)).toEqual(['video']);
    expect(plan.jobs[0]!.body).toMatchObject({ ...body, prompt: 'a slow pan' });
  });

  it('a trained model: its own top-level settings become their columns', () => {
    const body = { modelID: 'mdl_abcdefghijkl01', seed: 7, width: 768, height: 1024, steps: 30, enhanceFace: true };
    const cells = batchSettingsOf('image', body);
    expect(cells).toEqual({
      kind: 'image',
      model: 'mdl_abcdefghijkl01',
      seed: '7',
      width: '768',
      height: '1024',
      steps: '30',
      'enhance-face': 'true',
    });
  });

  it('a row’s own cell wins over the form’s setting', () => {
    const body = { modelID: 'imagea', aspectRatio: '1:1', numImages: 1 };
    const plan = planBatch(
      readBatchCsv('prompt,aspect-ratio\nwide one,16:9\nsquare one,\n'),
      batchSettingsOf('image', body),
    );
    expect(plan.jobs.map((j) => [j.body['prompt'], j.body['aspectRatio']])).toEqual([
      ['wide one', '16:9'],
      ['square one', '1:1'],
    ]);
  });

  it('a setting is taken as written, never as {a|b} choices', () => {
    expect(literalCell('a{b|c}\\d')).toBe('a\\{b\\|c\\}\\\\d');
    const plan = planned('image', { modelID: 'imagea', preset: '{x|y}' });
    expect(plan.jobs).toHaveLength(1);
  });
});
