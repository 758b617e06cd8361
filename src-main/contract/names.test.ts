import { describe, expect, it } from 'vitest';
import { assetTitle, familyName, modelName, presetName, RAW_ID_PATTERN, referenceName, wordsOfSlug } from './names.ts';

describe('names', () => {
  it('names public models by their display name, never their id', () => {
    expect(modelName('imagec-2')).toBe('Image C 2');
    expect(modelName('imageb-4_5')).toBe('Image B 4.5');
    expect(modelName('videoa-3.1-fast')).toBe('Video A 3.1 Fast');
  });

  it('names a trained model by its label, else without its mdl_ id', () => {
    expect(modelName('mdl_00925f615b303bbf', { label: 'Ada' })).toBe('Ada');
    const unnamed = modelName('mdl_00925f615b303bbf');
    expect(unnamed).toBe('Untitled model 00925f');
    expect(unnamed).not.toMatch(RAW_ID_PATTERN);
  });

  it('names the provided models in words and puts them in one group', () => {
    expect(modelName('free-general', { modelType: 'free' })).toBe('Free general');
    expect(modelName('general-portrait', { modelType: 'general' })).toBe('General portrait');
    expect(familyName('free-general', 'free')).toBe(familyName('general-portrait', 'general'));
    expect(familyName('imagec-2')).toBe('Image family C');
    expect(modelName(null)).toBe('No model');
  });

  it('names presets from the service list, else from the slug', () => {
    const names = new Map([['photo-golden-hour', 'Golden hour']]);
    expect(presetName('photo-golden-hour', (slug) => names.get(slug))).toBe('Golden hour');
    expect(presetName('cinematic-noir')).toBe('Cinematic noir');
    expect(wordsOfSlug('free-general')).toBe('Free general');
  });

  it('names an upscale after its source, not its img_ id', () => {
    const upscale = { kind: 'image' as const, prompt: null, sourceAssetId: 'img_008u' };
    expect(assetTitle(upscale, 'a heron at dawn')).toBe('Upscale of “a heron at dawn”');
    expect(assetTitle(upscale)).not.toMatch(RAW_ID_PATTERN);
    expect(assetTitle({ kind: 'video', prompt: null, origin: 'uploaded' })).toBe('Uploaded video');
  });

  it('names a reference URL by its file or host', () => {
    expect(referenceName('http://127.0.0.1:4000/media/heron.png?sig=1')).toBe('heron.png');
    expect(referenceName('http://127.0.0.1:4000/images/img_0001/file')).toBe('an image from 127.0.0.1');
    expect(referenceName('not a url')).toBe('a reference image');
  });
});
