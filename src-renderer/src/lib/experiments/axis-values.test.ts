// "Try across models…" axes from the user's seat: what each kind offers for the form's request, the
// form's own value ticked, typed seeds and prompts read (or refused in words), the contract's caps.
import { describe, expect, it } from 'vitest';
import { axisChoices, choiceById, currentValue, valueGroups, type AxisContext } from './axis-choices.ts';
import { axisValues, cellsProblem, drawSeeds, SEED_MAX, type AxisDraft } from './axis-values.ts';

const image: AxisContext = {
  kind: 'image',
  body: { modelID: 'imagec-2', prompt: 'a red kite', aspectRatio: '16:9', options: { imagec: { quality: 'high' } } },
  accountModels: [
    { id: 'mdl_ready', label: 'My dog', usable: true, provided: false },
    { id: 'mdl_training', label: 'My cat', usable: false, provided: false },
    { id: 'mdl_free', label: 'Free general', usable: true, provided: true },
  ],
  presets: [{ tag: 'cinematic', name: 'Cinematic' }],
};

const video: AxisContext = {
  kind: 'video',
  body: { modelID: 'videob-2.0', prompt: 'waves', options: { videob: { ratio: '21:9', seed: 7 } } },
  accountModels: [],
  presets: [],
};

const draft = (choiceId: string, over: Partial<AxisDraft> = {}): AxisDraft => ({
  choiceId,
  picked: [],
  text: '',
  randomSeeds: drawSeeds(() => 0.5),
  ...over,
});

const choice = (ctx: AxisContext, id: string) => {
  const found = choiceById(ctx, id);
  if (!found) throw new Error(`no choice ${id}`);
  return found;
};

describe('what an axis can vary', () => {
  it('offers the fixed kinds and the current model’s own options by their labels, never ids', () => {
    const labels = axisChoices(image).map((c) => c.label);
    expect(labels).toEqual(expect.arrayContaining(['Models', 'Aspect ratio', 'Preset', 'Seed', 'Prompt variants']));
    expect(labels).toContain('Quality');
    expect(labels).toContain('JPEG compression');
    expect(axisChoices(image).map((c) => c.id)).toContain('option:quality');
    // Video has no preset; its aspect ratio and seed are axes of their own, not "options".
    const videoIds = axisChoices(video).map((c) => c.id);
    expect(videoIds).not.toContain('preset');
    expect(videoIds).not.toContain('option:ratio');
    expect(videoIds).not.toContain('option:seed');
    expect(axisChoices(video).find((c) => c.id === 'numImages')?.label).toBe('Number of videos');
  });

  it('groups models by family and adds only the account’s ready models, apart from the provided ones', () => {
    const groups = valueGroups(image, choice(image, 'model'));
    expect(groups.map((g) => g.label)).toEqual([
      'Image family A',
      'Image family B',
      'Image family C',
      'Provided by the service',
      'Your models',
    ]);
    expect(groups.at(-1)?.values).toEqual([{ value: 'mdl_ready', label: 'My dog' }]);
    expect(groups[0]?.values[0]).toEqual({ value: 'imagea', label: 'Image A' });
    expect(valueGroups(video, choice(video, 'model')).flatMap((g) => g.values.map((v) => v.value))).toContain(
      'videod-1.5',
    );
  });

  it('reads the form’s own value, wherever the model keeps it', () => {
    expect(currentValue(image, choice(image, 'model'))).toBe('imagec-2');
    expect(currentValue(image, choice(image, 'aspectRatio'))).toBe('16:9');
    expect(currentValue(image, choice(image, 'option:quality'))).toBe('high');
    expect(currentValue(video, choice(video, 'aspectRatio'))).toBe('21:9');
    expect(currentValue(video, choice(video, 'seed'))).toBe('7');
    // Every ratio any video model takes, in the image form's order, "adaptive" last.
    expect(valueGroups(video, choice(video, 'aspectRatio'))[0]?.values.map((v) => v.value)).toEqual([
      '1:1',
      '2:3',
      '3:2',
      '3:4',
      '4:3',
      '9:16',
      '16:9',
      '21:9',
      'adaptive',
    ]);
  });

  it('offers an on/off option as On and Off', () => {
    const audio = valueGroups(video, choice(video, 'option:generateAudio'));
    expect(audio[0]?.values).toEqual([
      { value: 'true', label: 'On' },
      { value: 'false', label: 'Off' },
    ]);
  });
});

describe('an axis’s values', () => {
  it('sends the ticked values, an option with its key', () => {
    expect(axisValues(choice(image, 'model'), draft('model', { picked: ['imagea', 'imageb'] }))).toEqual({
      ok: true,
      axis: { kind: 'model', values: ['imagea', 'imageb'] },
    });
    expect(axisValues(choice(image, 'option:quality'), draft('option:quality', { picked: ['low'] }))).toEqual({
      ok: true,
      axis: { kind: 'option', key: 'quality', values: ['low'] },
    });
  });

  it('says what is missing when nothing is ticked, and refuses more than 12', () => {
    expect(axisValues(choice(image, 'model'), draft('model'))).toEqual({
      ok: false,
      problem: 'Choose at least one model.',
    });
    const many = Array.from({ length: 13 }, (_, i) => `m${i}`);
    expect(axisValues(choice(image, 'model'), draft('model', { picked: many }))).toMatchObject({
      ok: false,
      problem: 'Choose at most 12 models; 13 are chosen.',
    });
  });

  it('reads seeds as a list or as “n random”, the same random seeds each time', () => {
    const seeds = choice(image, 'seed');
    expect(axisValues(seeds, draft('seed', { text: '1, 2 3;4' }))).toMatchObject({
      axis: { values: ['1', '2', '3', '4'] },
    });
    const random = draft('seed', { text: '3 random', randomSeeds: drawSeeds() });
    const first = axisValues(seeds, random);
    expect(first).toMatchObject({ ok: true });
    expect(axisValues(seeds, random)).toEqual(first);
    if (first.ok) {
      expect(first.axis.values).toHaveLength(3);
      for (const v of first.axis.values) expect(Number(v)).toBeLessThanOrEqual(SEED_MAX);
    }
    expect(axisValues(seeds, draft('seed', { text: '1, x' }))).toEqual({
      ok: false,
      problem: `The seed “x” is not a whole number from 0 to ${SEED_MAX}.`,
    });
    expect(axisValues(seeds, draft('seed', { text: String(SEED_MAX + 1) }))).toMatchObject({ ok: false });
    expect(axisValues(seeds, draft('seed', { text: '13 random' }))).toEqual({
      ok: false,
      problem: 'Ask for 1 to 12 random seeds.',
    });
    expect(axisValues(seeds, draft('seed', { text: '5, 5' }))).toEqual({ ok: false, problem: '“5” is listed twice.' });
  });

  it('reads prompt variants one a line, blank lines left out', () => {
    expect(axisValues(choice(image, 'prompt'), draft('prompt', { text: 'a kite\n\n  a boat \n' }))).toEqual({
      ok: true,
      axis: { kind: 'prompt', values: ['a kite', 'a boat'] },
    });
    expect(axisValues(choice(image, 'prompt'), draft('prompt', { text: ' \n' }))).toEqual({
      ok: false,
      problem: 'Write at least one prompt, one a line.',
    });
  });

  it('refuses more than 48 cells, saying how many', () => {
    const axis = (n: number) => ({ kind: 'seed' as const, values: Array.from({ length: n }, (_, i) => String(i)) });
    expect(cellsProblem([axis(6), axis(8)])).toBeNull();
    expect(cellsProblem([axis(7), axis(7)])).toBe(
      'An experiment has at most 48 jobs; these choices make 49. Choose fewer values.',
    );
  });
});
