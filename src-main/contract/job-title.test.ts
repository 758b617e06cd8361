import { describe, expect, it } from 'vitest';
import { clipLine, jobTitle, TITLE_PROMPT_MAX, upscaleTitle } from './job-title.ts';

describe('job titles', () => {
  it('names an upscale after the prompt of the image it was made from', () => {
    expect(upscaleTitle('a heron at dawn')).toBe('Upscale of “a heron at dawn”');
    expect(jobTitle({ kind: 'upscale', prompt: null }, 'a heron at dawn')).toBe('Upscale of “a heron at dawn”');
  });

  it('says so when the source has no prompt or is not known, never an id or "No prompt"', () => {
    expect(jobTitle({ kind: 'upscale', prompt: null }, null)).toBe('Upscale of an image without a prompt');
    expect(jobTitle({ kind: 'upscale', prompt: null })).toBe('Upscale of an image without a prompt');
    expect(upscaleTitle('   ')).toBe('Upscale of an image without a prompt');
  });

  it('keeps a generation its own prompt, and says when there is none', () => {
    expect(jobTitle({ kind: 'image', prompt: 'a red barn' })).toBe('a red barn');
    expect(jobTitle({ kind: 'video', prompt: null })).toBe('No prompt');
  });

  it('quotes a long or multi-line prompt on one clipped line', () => {
    const long = `a heron\n\nat   dawn ${'x'.repeat(200)}`;
    const title = upscaleTitle(long);
    expect(title.startsWith('Upscale of “a heron at dawn x')).toBe(true);
    expect(title.endsWith('…”')).toBe(true);
    expect(clipLine(long, TITLE_PROMPT_MAX)).toHaveLength(TITLE_PROMPT_MAX);
    expect(clipLine('short', TITLE_PROMPT_MAX)).toBe('short');
  });
});
