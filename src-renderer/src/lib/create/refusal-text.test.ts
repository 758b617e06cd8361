import { describe, expect, it } from 'vitest';
import { refusalInfo } from '@contract/rules/refusal.ts';
import { unknownModelProblem } from '@contract/rules/index.ts';
import { refusalText } from './refusal-text.ts';

describe('refusalText', () => {
  it('says a refusal of one unknown model once (the core puts it in the message already)', () => {
    const error = refusalInfo([unknownModelProblem('mdl_0001abcdef')]);
    const text = refusalText(error);
    expect(text.match(/is not one of your models/g)).toHaveLength(1);
    expect(text).toContain('mdl_0001abcdef');
  });

  it('adds the field problems the message does not say', () => {
    const text = refusalText({
      code: 'validation',
      message: 'The request was refused.',
      fields: [
        { field: 'prompt', message: 'prompt is required' },
        { field: 'numImages', message: 'numImages is at most 4' },
      ],
    });
    expect(text).toBe('The request was refused. prompt is required; numImages is at most 4');
  });
});
