import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../rules/index.ts';
import { BatchTooLargeError, planBatch } from './batch-plan.ts';
import { readBatchCsv, readPromptList } from './batch-source.ts';
import { BATCH_MAX_JOBS } from './wildcards.ts';

describe('planning a batch', () => {
  it('applies the shared settings to every prompt of a list', () => {
    const plan = planBatch(readPromptList('a fox\nan owl\n'), { model: 'imagea', 'aspect-ratio': '16:9' });
    expect(plan.refused).toEqual([]);
    expect(plan.jobs).toEqual([
      { row: 1, expansion: 1, of: 1, kind: 'image', body: { modelID: 'imagea', prompt: 'a fox', aspectRatio: '16:9' } },
      {
        row: 2,
        expansion: 1,
        of: 1,
        kind: 'image',
        body: { modelID: 'imagea', prompt: 'an owl', aspectRatio: '16:9' },
      },
    ]);
  });

  it('lets a CSV cell override a shared setting, an empty one keeps it', () => {
    const plan = planBatch(readBatchCsv('prompt,model,num-images\na,imageb,2\nb,,\n'), {
      model: 'imagea',
      'num-images': '1',
    });
    expect(plan.jobs.map((j) => [j.body['modelID'], j.body['numImages']])).toEqual([
      ['imageb', 2],
      ['imagea', 1],
    ]);
  });

  it('maps option:KEY columns into the model’s option group, typed by its rules', () => {
    const plan = planBatch(readBatchCsv('prompt,model,option:imageSize\na,imagea-2,2K\n'));
    expect(plan.refused).toEqual([]);
    expect(plan.jobs[0]!.body).toMatchObject({ modelID: 'imagea-2', options: { imagea: { imageSize: '2K' } } });
  });

  it('builds video jobs from kind=video rows and refuses image-only settings on them', () => {
    const csv =
      'kind,model,prompt,num-images,option:duration\nvideo,videoa-3.1,a wave,,8\nvideo,videoa-3.1,a wave,2,\nsound,imagea,x,,\n';
    const plan = planBatch(readBatchCsv(csv));
    expect(plan.jobs).toHaveLength(1);
    expect(plan.jobs[0]).toMatchObject({ row: 1, kind: 'video' });
    expect(validate({ kind: 'video', body: plan.jobs[0]!.body })).toEqual([]);
    expect(plan.refused.map((r) => r.message)).toEqual([
      'row 2: num-images is a setting of image jobs, not of video jobs',
      'row 3: kind must be image or video; you gave "sound"',
    ]);
  });

  it('refuses rows with the rules’ own messages and row numbers, keeping the valid ones', () => {
    const csv = 'prompt,model,num-images,aspect-ratio\na,imagea,1,\nb,imagea,9,\n,imagea,,\nd,imagea,,7:3\ne,,,\n';
    const plan = planBatch(readBatchCsv(csv));
    expect(plan.jobs.map((j) => j.row)).toEqual([1]);
    const first = (body: Record<string, unknown>) => validate({ kind: 'image', body })[0]!.message;
    expect(plan.refused.map((r) => r.message)).toEqual([
      `row 2: ${first({ modelID: 'imagea', prompt: 'b', numImages: 9 })}`,
      `row 3: ${first({ modelID: 'imagea' })}`,
      `row 4: ${first({ modelID: 'imagea', prompt: 'd', aspectRatio: '7:3' })}`,
      `row 5: ${first({ prompt: 'e' })}`,
    ]);
    expect(plan.refused[0]!.message).toBe('row 2: numImages must be an integer from 1 to 4 on imagea; you gave 9');
  });

  it('expands wildcards across cells and names the expansion a refusal came from', () => {
    const csv = 'prompt,model,aspect-ratio\na {red|blue} fox,imagea,{16:9|7:3}\n';
    const plan = planBatch(readBatchCsv(csv));
    expect(plan.jobs.map((j) => [j.body['prompt'], j.body['aspectRatio'], j.expansion, j.of])).toEqual([
      ['a red fox', '16:9', 1, 4],
      ['a blue fox', '16:9', 3, 4],
    ]);
    expect(plan.refused.map((r) => r.message.replace(/ must be .*/, ''))).toEqual([
      'row 1 (expansion 2 of 4): aspectRatio',
      'row 1 (expansion 4 of 4): aspectRatio',
    ]);
  });

  it('expands wildcards across models from the shared settings too', () => {
    const plan = planBatch(readPromptList('a fox\n'), { model: '{imagea|imageb|imagec-2}' });
    expect(plan.jobs.map((j) => j.body['modelID'])).toEqual(['imagea', 'imageb', 'imagec-2']);
  });

  it('refuses a row whose braces do not close, naming the column', () => {
    const plan = planBatch(readPromptList('a {red fox\nan owl\n'), { model: 'imagea' });
    expect(plan.jobs).toHaveLength(1);
    expect(plan.refused.map((r) => r.message)).toEqual([
      'row 1: prompt: the "{" at character 3 is never closed (write \\{ for a brace itself)',
    ]);
  });

  it('lists rows the CSV could not read as refused', () => {
    const plan = planBatch(readBatchCsv('prompt,model\na,imagea,extra\n'));
    expect(plan.refused.map((r) => r.message)).toEqual(['row 1: it has 3 cells but the header names 2 columns']);
  });

  it('refuses a batch over the cap before building it, with the count', () => {
    const rows = readPromptList(
      '{a|b|c|d|e|f|g|h|i|j}{a|b|c|d|e|f|g|h|i|j}{a|b|c|d|e|f|g|h|i|j}{a|b|c|d|e|f|g|h|i|j}\nx\n',
    );
    expect(() => planBatch(rows, { model: 'imagea' })).toThrow(BatchTooLargeError);
    expect(() => planBatch(rows, { model: 'imagea' })).toThrow(
      'This batch would make 10,001 jobs; one batch makes at most 10,000.',
    );
    const exactly = readPromptList(
      '{a|b|c|d|e|f|g|h|i|j}{a|b|c|d|e|f|g|h|i|j}{a|b|c|d|e|f|g|h|i|j}{a|b|c|d|e|f|g|h|i|j}',
    );
    expect(planBatch(exactly, { model: 'imagea' }).jobs).toHaveLength(BATCH_MAX_JOBS);
  });

  it('plans exactly rows × expansions jobs, each valid or refused, never both (property)', () => {
    const word = fc.stringMatching(/^[a-z]{1,5}$/);
    const cell = fc
      .uniqueArray(word, { minLength: 1, maxLength: 3 })
      .map((alts) => (alts.length === 1 ? alts[0]! : `{${alts.join('|')}}`));
    const ratio = fc.uniqueArray(fc.constantFrom('1:1', '16:9', '7:3', '9:16'), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, ratio), { minLength: 1, maxLength: 8 }), (rows) => {
        const csv = ['prompt,model,aspect-ratio', ...rows.map(([p, r]) => `"${p}",imagea,{${r.join('|')}}`)].join('\n');
        const plan = planBatch(readBatchCsv(csv));
        const expected = rows.reduce((n, [p, r]) => n + (p.startsWith('{') ? p.split('|').length : 1) * r.length, 0);
        expect(plan.jobs.length + plan.refused.length).toBe(expected);
        expect(plan.refused.every((x) => x.message.includes('aspectRatio'))).toBe(true);
        for (const job of plan.jobs) expect(validate({ kind: job.kind, body: job.body })).toEqual([]);
      }),
    );
  });
});
