import { describe, expect, it } from 'vitest';
import { formMessage, notReadyProblem, validate } from '@contract/rules/index.ts';
import { formWords, pathLabel } from './labels.ts';

const words = formWords((id) => (id === 'mdl_1' ? 'Window light' : undefined));
const shown = (kind: 'image' | 'video', body: Record<string, unknown>) =>
  validate({ kind, body }).map((p) => formMessage(p, words));

describe('problems in the form’s words', () => {
  it('labels field paths as the screen does', () => {
    expect(pathLabel('options.imagec.outputCompression')).toBe('JPEG compression');
    expect(pathLabel('options.videob.ratio')).toBe('Aspect ratio');
    expect(pathLabel('referenceImageURLs[1]')).toBe('Reference image 2');
    expect(pathLabel('referenceImages[0].role')).toBe('Role of reference image 1');
    expect(pathLabel('modelID')).toBe('Model');
  });

  it('says a range with the label and what was entered, never the path', () => {
    const messages = shown('image', {
      modelID: 'imagec-2',
      prompt: 'x',
      options: { imagec: { outputCompression: 150 } },
    });
    expect(messages).toEqual(['JPEG compression must be a whole number 0–100; you entered 150']);
  });

  it('words every problem of a bad request without paths or raw ids', () => {
    const messages = [
      ...shown('image', {
        modelID: 'imagea',
        numImages: 9,
        referenceImageURLs: ['a', 'b', 'c', 'd'],
        options: { imagea: { imageSize: '8K', safetyFilterLevel: 'LOOSE' } },
      }),
      ...shown('image', { modelID: 'mdl_1', width: 100 }),
      ...shown('video', {
        modelID: 'videoa-3.1',
        prompt: 'x',
        referenceImages: [{ url: 'https://x.test/a.png', role: 'reference_image' }],
        options: { videoa: { duration: 4 } },
      }),
      ...shown('video', { modelID: 'videob-2.0', prompt: 'x', options: { videob: { ratio: '5:1' } } }),
    ];
    expect(messages.length).toBeGreaterThan(6);
    for (const message of messages) {
      expect(message).not.toMatch(/options\.|modelID|imageSize|\bon imagea|\[\d+\]|you gave/);
    }
    expect(messages).toContain('Prompt is required for Image A (a preset alone is not enough)');
    expect(messages).toContain('Image A takes at most 3 reference images; you added 4');
    expect(messages).toContain('Size must be one of 1K, 2K, 4K; you entered “8K”');
    expect(messages).toContain('Reference image 1 is not a public http(s) link: “a”');
    expect(messages).toContain('Width must be a whole number 256–2048; you entered 100');
    expect(messages).toContain('Duration must be 8 s when a reference image is used; you chose 4');
    expect(messages.some((m) => m.startsWith('Aspect ratio must be one of'))).toBe(true);
  });

  it('names the label when the rule’s own words do not, and words a model that is not ready', () => {
    const roles = shown('video', {
      modelID: 'videob-1.5-pro',
      prompt: 'x',
      referenceImages: [
        { url: 'https://x.test/a.png', role: 'first_frame' },
        { url: 'https://x.test/b.png', role: 'first_frame' },
      ],
    });
    expect(roles).toEqual(['Reference images: Video B 1.5 Pro accepts at most 1 first frame input; you entered 2']);
    const refusal = notReadyProblem('mdl_1', 'training', 'Window light');
    expect(refusal && formMessage(refusal, words)).toBe('Window light is training: only ready models can generate');
    expect(refusal?.message).toBe('modelID Window light (mdl_1) is training: only ready models can generate');
  });
});
