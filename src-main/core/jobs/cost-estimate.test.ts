import { describe, expect, it } from 'vitest';
import { estimateCost, priceKey } from './cost-estimate.ts';

const row = (request: Record<string, unknown>, credits: number) => ({ request: JSON.stringify(request), credits });

describe('cost before Generate', () => {
  it('compares only what changes the price: not the prompt, seed or references', () => {
    const a = { modelID: 'imagea', prompt: 'a', numImages: 2, options: { imagea: { imageSize: '2K' } } };
    const b = { ...a, prompt: 'b', referenceImageURLs: ['https://x.test/r.png'] };
    expect(priceKey('image', a)).toBe(priceKey('image', b));
    expect(priceKey('image', a)).not.toBe(priceKey('image', { ...a, numImages: 3 }));
    expect(priceKey('image', a)).not.toBe(priceKey('image', { ...a, options: { imagea: { imageSize: '4K' } } }));
    // A default sent and a default left out cost the same.
    const bare = { modelID: 'imagec-2', prompt: 'x' };
    const spelled = { ...bare, numImages: 1, aspectRatio: '1:1', options: { imagec: { outputFormat: 'jpeg' } } };
    expect(priceKey('image', bare)).toBe(priceKey('image', spelled));
  });

  it('averages the recent jobs with the same model and settings, or says there is no history', () => {
    const body = { modelID: 'videod-1.5', prompt: 'x', options: { videod: { duration: 4 } } };
    const history = [
      row({ ...body, prompt: 'one' }, 8),
      row({ ...body, options: { videod: { duration: 8 } } }, 16),
      row({ ...body, prompt: 'two', options: { videod: { duration: 4, seed: 3 } } }, 9),
      { request: 'not json', credits: 1 },
    ];
    expect(estimateCost('video', body, history)).toEqual({ credits: 8.5, basedOn: 2, low: 8, high: 9 });
    expect(estimateCost('video', { ...body, options: { videod: { duration: 2 } } }, history)).toEqual({
      credits: null,
      basedOn: 0,
      low: null,
      high: null,
    });
  });
});
