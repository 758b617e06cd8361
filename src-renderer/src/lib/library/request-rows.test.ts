import { describe, expect, it } from 'vitest';
import { modelName, presetName, referenceName, RAW_ID_PATTERN } from '@contract/names.ts';
import { requestIds, requestRows } from './request-rows.ts';

const names = {
  model: (id: string) => modelName(id),
  preset: (slug: string) => presetName(slug),
  reference: referenceName,
};

describe('requestRows', () => {
  it('labels fields and values as the forms do, with names instead of ids', () => {
    const rows = requestRows(
      {
        modelID: 'imagec-2',
        prompt: 'a heron',
        preset: 'photo-golden-hour',
        numImages: 2,
        options: { imagec: { quality: 'high', outputFormat: 'png', enhancePrompt: true } },
      },
      names,
    );
    expect(rows).toEqual([
      { label: 'Model', value: 'Image C 2' },
      { label: 'Preset', value: 'Photo golden hour' },
      { label: 'Images', value: '2' },
      { label: 'Quality', value: 'High' },
      { label: 'Format', value: 'PNG' },
      { label: 'Enhance prompt', value: 'Yes' },
    ]);
  });

  it('names references by role and file, never their address or a trained model id', () => {
    const rows = requestRows(
      {
        modelID: 'mdl_00925f615b303bbf',
        referenceImages: [{ url: 'http://127.0.0.1:4123/media/img_0001/file', role: 'first_frame' }],
        referenceImageURLs: ['https://example.com/heron.png'],
      },
      names,
    );
    expect(rows).toEqual([
      { label: 'Model', value: 'Untitled model 00925f' },
      { label: 'Reference image 1', value: 'First frame · an image from 127.0.0.1' },
      { label: 'Reference image 1', value: 'heron.png' },
    ]);
    expect(rows.map((r) => r.value).join(' ')).not.toMatch(RAW_ID_PATTERN);
  });

  it("keeps an upscale's image id out of the rows and under Details", () => {
    const request = { imageID: 'img_008n8d73fb24687d' };
    expect(requestRows(request, names)).toEqual([
      { label: 'Source image', value: 'One of your images (id under Details)' },
    ]);
    expect(requestIds(request)).toEqual([['Source image id', 'img_008n8d73fb24687d']]);
  });
});
