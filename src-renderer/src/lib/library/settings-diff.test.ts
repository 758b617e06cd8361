import { describe, expect, it } from 'vitest';
import { modelName, presetName, referenceName } from '@contract/names.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { diffPrompts, diffSettings, promptsDiffer, settingsOf, type PromptPart } from './settings-diff.ts';

const names = {
  model: (id: string) => modelName(id),
  preset: (slug: string) => presetName(slug),
  reference: referenceName,
};

const spelled = (parts: PromptPart[]) => parts.map((part) => part.text).join('');
const marked = (parts: PromptPart[], mark: PromptPart['mark']) =>
  parts.filter((part) => part.mark === mark).map((part) => part.text.trim());

describe('diffPrompts', () => {
  it('marks the words added and removed, each side spelled exactly as typed', () => {
    const other = diffPrompts('a red fox in the snow', 'a red fox in deep snow');
    expect(spelled(other.parts.filter((p) => p.mark !== 'removed'))).toBe('a red fox in deep snow');
    expect(marked(other.parts, 'added')).toEqual(['deep']);
    expect(marked(other.parts, 'removed')).toEqual(['the']);
    const reference = diffPrompts('a red fox in the snow', 'a red fox in deep snow', 'reference');
    expect(spelled(reference.parts)).toBe('a red fox in the snow');
    expect(marked(reference.parts, 'removed')).toEqual(['the']);
    expect(marked(reference.parts, 'added')).toEqual([]);
  });

  it('treats punctuation marks as words of their own', () => {
    const diff = diffPrompts('a cat, sitting on a mat', 'a cat sitting on a mat.');
    expect(marked(diff.parts, 'removed')).toEqual([',']);
    expect(marked(diff.parts, 'added')).toEqual(['.']);
    expect(spelled(diff.parts.filter((p) => p.mark !== 'removed'))).toBe('a cat sitting on a mat.');
  });

  it('sees reordered words as removed in one place and added in another', () => {
    const diff = diffPrompts('fox dog cat', 'cat dog fox');
    expect(spelled(diff.parts.filter((p) => p.mark !== 'removed'))).toBe('cat dog fox');
    expect(marked(diff.parts, 'added').sort()).toEqual(['cat', 'fox']);
    expect(marked(diff.parts, 'removed').sort()).toEqual(['cat', 'fox']);
    expect(diff.parts.find((p) => p.mark === 'same')?.text).toBe(' dog ');
  });

  it('a change of spacing alone is no difference', () => {
    const diff = diffPrompts('a  red fox', 'a red fox ');
    expect(promptsDiffer(diff)).toBe(false);
    expect(spelled(diff.parts)).toBe('a red fox ');
    expect(spelled(diffPrompts('a  red fox', 'a red fox ', 'reference').parts)).toBe('a  red fox');
  });

  it('an empty prompt against a full one: every word added (or removed)', () => {
    expect(diffPrompts('', 'a heron')).toEqual({ parts: [{ text: 'a heron', mark: 'added' }], compared: true });
    expect(diffPrompts('a heron', '')).toEqual({ parts: [{ text: 'a heron', mark: 'removed' }], compared: true });
    expect(diffPrompts('a heron', '', 'reference').parts).toEqual([{ text: 'a heron', mark: 'removed' }]);
  });

  it('an unknown prompt is not compared: the known one is shown unmarked', () => {
    expect(diffPrompts(null, 'a heron')).toEqual({ parts: [{ text: 'a heron', mark: 'same' }], compared: false });
    expect(diffPrompts('a heron', null)).toEqual({ parts: [], compared: false });
    expect(diffPrompts('a heron', null, 'reference')).toEqual({
      parts: [{ text: 'a heron', mark: 'same' }],
      compared: false,
    });
  });

  it('keeps the spaces around a changed run out of its mark', () => {
    const diff = diffPrompts('a lighthouse at dawn', 'a white old lighthouse at dawn');
    expect(diff.parts).toEqual([
      { text: 'a ', mark: 'same' },
      { text: 'white old', mark: 'added' },
      { text: ' lighthouse at dawn', mark: 'same' },
    ]);
  });

  it('identical prompts: one unmarked part', () => {
    const diff = diffPrompts('a heron, at dawn', 'a heron, at dawn');
    expect(diff.parts).toEqual([{ text: 'a heron, at dawn', mark: 'same' }]);
    expect(promptsDiffer(diff)).toBe(false);
  });
});

const asset = (over: Partial<AssetInfo>): AssetInfo =>
  ({
    kind: 'image',
    paramsJson: null,
    modelId: null,
    preset: null,
    width: null,
    height: null,
    durationMs: null,
    format: null,
    factsFrom: null,
    file: { state: 'remote', path: null, thumbPath: null, localUrl: null, thumbUrl: null, bytes: null },
    ...over,
  }) as AssetInfo;

describe('settingsOf', () => {
  it('reads the request through the details rows, then the media facts', () => {
    const rows = settingsOf(
      asset({
        paramsJson: JSON.stringify({ modelID: 'imagea', prompt: 'x', aspectRatio: '16:9', seed: 42 }),
        modelId: 'imagea',
        width: 1024,
        height: 576,
        format: 'png',
        factsFrom: 'file',
      }),
      names,
    );
    expect(rows).toEqual([
      { label: 'Model', value: 'Image A' },
      { label: 'Aspect ratio', value: '16:9' },
      { label: 'Seed', value: '42' },
      { label: 'Dimensions', value: '1024 × 576' },
      { label: 'Format', value: 'PNG' },
    ]);
  });

  it('without a known request: model and preset by name, and the facts', () => {
    expect(settingsOf(asset({ modelId: 'imagec-2', preset: 'photo-golden-hour' }), names)).toEqual([
      { label: 'Model', value: 'Image C 2' },
      { label: 'Preset', value: 'Photo golden hour' },
    ]);
  });
});

describe('diffSettings', () => {
  it('says per row: the same, different, or set on one side only', () => {
    const rows = diffSettings([
      [
        { label: 'Model', value: 'Image A' },
        { label: 'Seed', value: '1' },
        { label: 'Aspect ratio', value: '1:1' },
      ],
      [
        { label: 'Model', value: 'Image A' },
        { label: 'Seed', value: '2' },
        { label: 'Quality', value: 'High' },
      ],
    ]);
    expect(rows).toEqual([
      { label: 'Model', values: ['Image A', 'Image A'], state: 'same', cells: ['same', 'same'] },
      { label: 'Seed', values: ['1', '2'], state: 'different', cells: ['different', 'different'] },
      { label: 'Aspect ratio', values: ['1:1', null], state: 'only-some', cells: ['only-some', 'absent'] },
      { label: 'Quality', values: [null, 'High'], state: 'only-some', cells: ['absent', 'only-some'] },
    ]);
  });

  it('lines up a label met twice on a side with the same occurrence on the others', () => {
    const rows = diffSettings([
      [
        { label: 'Reference image 1', value: 'a.png' },
        { label: 'Reference image 1', value: 'b.png' },
      ],
      [{ label: 'Reference image 1', value: 'a.png' }],
      [
        { label: 'Reference image 1', value: 'a.png' },
        { label: 'Reference image 1', value: 'c.png' },
      ],
    ]);
    expect(rows.map((row) => [row.label, row.values, row.state])).toEqual([
      ['Reference image 1', ['a.png', 'a.png', 'a.png'], 'same'],
      ['Reference image 1', ['b.png', null, 'c.png'], 'only-some'],
    ]);
  });

  it('three sides where two agree: every set cell of the row is marked different', () => {
    const [row] = diffSettings([
      [{ label: 'Seed', value: '1' }],
      [{ label: 'Seed', value: '1' }],
      [{ label: 'Seed', value: '3' }],
    ]);
    expect(row?.state).toBe('different');
    expect(row?.cells).toEqual(['different', 'different', 'different']);
  });
});
