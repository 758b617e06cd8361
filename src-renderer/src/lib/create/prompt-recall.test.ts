import { describe, expect, it } from 'vitest';
import { recallStep, recentPrompts } from './prompt-recall.ts';

describe('prompt recall', () => {
  it('lists the panel’s prompts newest first, once each', () => {
    const jobs = [
      { kind: 'image' as const, prompt: 'b' },
      { kind: 'video' as const, prompt: 'v' },
      { kind: 'image' as const, prompt: 'a' },
      { kind: 'image' as const, prompt: 'b' },
      { kind: 'image' as const, prompt: null },
    ];
    expect(recentPrompts(jobs, ['image'])).toEqual(['b', 'a']);
  });

  it('walks up from an empty prompt and back down to empty; leaves a typed prompt alone', () => {
    const recent = ['b', 'a'];
    expect(recallStep('ArrowUp', '', recent, -1)).toEqual({ prompt: 'b', position: 0 });
    expect(recallStep('ArrowUp', 'b', recent, 0)).toEqual({ prompt: 'a', position: 1 });
    expect(recallStep('ArrowUp', 'a', recent, 1)).toBeNull();
    expect(recallStep('ArrowDown', 'a', recent, 1)).toEqual({ prompt: 'b', position: 0 });
    expect(recallStep('ArrowDown', 'b', recent, 0)).toEqual({ prompt: '', position: -1 });
    expect(recallStep('ArrowUp', 'my own words', recent, -1)).toBeNull();
    expect(recallStep('ArrowUp', 'b edited', recent, 0)).toBeNull();
  });
});
