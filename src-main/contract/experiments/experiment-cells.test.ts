// The experiment's expansion (counts, order, the cap) and the per-model mapping: a setting sent to
// models that do not accept it is mapped or dropped with a note, and every body produced passes the
// contract's rules (what the emulator enforces too).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { experimentPlanSchema } from '../ipc/experiments.ts';
import { PUBLIC_IMAGE_MODEL_IDS, VIDEO_MODEL_IDS, validate } from '../rules/index.ts';
import { axesProblem } from './axis-values.ts';
import { expandAxes } from './experiment-axes.ts';
import { experimentCells } from './experiment-cells.ts';

const TRAINED = 'mdl_trained01';
const naming = {
  modelLabel: (id: string) => (id === TRAINED ? 'My heron model' : undefined),
  modelStatus: (id: string) => (id === TRAINED ? 'ready' : id === 'mdl_busy' ? 'training' : undefined),
};

const imageBase = (body: Record<string, unknown>) => ({ kind: 'image' as const, body: { prompt: 'a heron', ...body } });

/** Every cell not refused is valid by the rules, exactly as it will be sent. */
function expectAllValid(cells: { kind: 'image' | 'video'; body: Record<string, unknown>; refused: string | null }[]) {
  for (const cell of cells) {
    expect(cell.refused, JSON.stringify(cell.body)).toBeNull();
    expect(validate({ kind: cell.kind, body: cell.body }), JSON.stringify(cell.body)).toEqual([]);
  }
}

describe('expanding the axes into cells', () => {
  it('makes one cell per value of one axis, in one column', () => {
    const plan = experimentCells(imageBase({ modelID: 'imagea' }), [{ kind: 'seed', values: ['1', '2', '3'] }]);
    expect(plan.cells.map((c) => [c.row, c.column])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(plan.columns).toEqual([{ value: '', label: '' }]);
    expect(plan.axes).toEqual([{ kind: 'seed', key: null, label: 'Seed' }]);
  });

  it('crosses two axes row-major: rows × columns cells', () => {
    const plan = experimentCells(imageBase({ modelID: 'imagea' }), [
      { kind: 'model', values: ['imagea', 'imageb', 'imagec-2'] },
      { kind: 'aspectRatio', values: ['1:1', '16:9'] },
    ]);
    expect(plan.cells).toHaveLength(6);
    expect(plan.cells.map((c) => [c.row, c.column, c.body['modelID'], c.body['aspectRatio']])).toEqual([
      [0, 0, 'imagea', '1:1'],
      [0, 1, 'imagea', '16:9'],
      [1, 0, 'imageb', '1:1'],
      [1, 1, 'imageb', '16:9'],
      [2, 0, 'imagec-2', '1:1'],
      [2, 1, 'imagec-2', '16:9'],
    ]);
    expect(plan.rows.map((r) => r.label)).toEqual(['Image A', 'Image B', 'Image C 2']);
    expect(plan.columns.map((c) => c.label)).toEqual(['1:1', '16:9']);
    expectAllValid(plan.cells);
  });

  it('stops at 48 cells with a plain error', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
    expect(
      expandAxes([
        { kind: 'seed', values: values(12) },
        { kind: 'prompt', values: values(4) },
      ]),
    ).toHaveLength(48);
    expect(() =>
      expandAxes([
        { kind: 'seed', values: values(7) },
        { kind: 'prompt', values: values(7) },
      ]),
    ).toThrow('An experiment has at most 48 cells; this one would have 49.');
  });

  it('refuses a value of the wrong form in plain words', () => {
    expect(axesProblem([{ kind: 'seed', values: ['12', 'twelve'] }])).toBe(
      'The seed “twelve” is not a whole number from 0 to 4294967295.',
    );
    expect(axesProblem([{ kind: 'aspectRatio', values: ['16x9'] }])).toMatch(/not of the form width:height/);
    expect(axesProblem([{ kind: 'numImages', values: ['0'] }])).toMatch(/at least 1/);
    expect(axesProblem([{ kind: 'aspectRatio', values: ['21:9', '2:3'] }])).toBeNull();
    // The channel refuses it where the arguments enter, with the same words.
    const parsed = v.safeParse(experimentPlanSchema, {
      base: { kind: 'image', body: { modelID: 'imagea', prompt: 'x' } },
      axes: [{ kind: 'seed', values: ['12', 'twelve'] }],
    });
    expect(parsed.issues?.map((i) => i.message)).toEqual([
      'The seed “twelve” is not a whole number from 0 to 4294967295.',
    ]);
  });
});

describe('mapping a setting to models that do not accept it', () => {
  const everyImageModel = [...PUBLIC_IMAGE_MODEL_IDS, TRAINED];

  it('21:9 at 4K with family A options: each of the seven families and a trained model gets a valid request', () => {
    const base = imageBase({
      modelID: 'imagea',
      aspectRatio: '21:9',
      numImages: 2,
      options: { imagea: { imageSize: '4K', safetyFilterLevel: 'BLOCK_NONE' } },
    });
    const plan = experimentCells(base, [{ kind: 'model', values: everyImageModel }], naming);
    expectAllValid(plan.cells);
    const byModel = new Map(plan.cells.map((c) => [c.body['modelID'], c]));
    expect(byModel.get('imagea')!.notes).toEqual([]);
    expect(byModel.get('imagea-pro')!.body).toMatchObject({
      aspectRatio: '21:9',
      options: { imagea: { imageSize: '4K' } },
    });
    // Image C cannot make 4K at 21:9: the tier goes down; it has no safety filter.
    expect(byModel.get('imagec-2')!.body).toMatchObject({
      aspectRatio: '21:9',
      options: { imagec: { imageSize: '2K' } },
    });
    expect(byModel.get('imagec-2')!.notes.map((n) => n.message)).toEqual([
      'safety filter level dropped: Image C 2 has no such option',
      'image size 4K → 2K: Image C 2 cannot make 4K at 21:9',
    ]);
    // Image B 5 Lite makes 2K or 3K: 4K goes to the nearest.
    expect(byModel.get('imageb-5-lite')!.body).toMatchObject({
      options: { imageb: { imageSize: '3K', sequentialMode: 'auto' } },
    });
    expect(byModel.get('imageb-5-lite')!.notes).toContainEqual({
      field: 'options.imagea.imageSize',
      change: 'mapped',
      message: 'image size 4K → 3K: Image B 5 Lite has no 4K',
    });
    // A trained model takes a size, not a ratio, and no option group.
    const trained = byModel.get(TRAINED)!;
    expect(trained.body).toEqual({ modelID: TRAINED, prompt: 'a heron', numImages: 2, width: 1024, height: 432 });
    expect(trained.notes.map((n) => [n.change, n.message])).toEqual([
      ['mapped', 'aspect ratio 21:9 → 1024 × 432 px: My heron model takes a size, not an aspect ratio'],
      ['dropped', 'image size dropped: My heron model has no options'],
      ['dropped', 'safety filter level dropped: My heron model has no options'],
    ]);
    expect(plan.rows.map((r) => r.label)).toContain('My heron model');
  });

  it('a family-only option (Image C quality) is set on Image C and dropped, said, everywhere else', () => {
    const plan = experimentCells(
      imageBase({ modelID: 'imagec-2' }),
      [
        { kind: 'model', values: everyImageModel },
        { kind: 'option', key: 'quality', values: ['high', 'low'] },
      ],
      naming,
    );
    expect(plan.cells).toHaveLength(16);
    expect(plan.axes[1]).toEqual({ kind: 'option', key: 'quality', label: 'Quality' });
    expectAllValid(plan.cells);
    for (const cell of plan.cells) {
      if (cell.body['modelID'] === 'imagec-2') {
        expect(cell.notes).toEqual([]);
        expect(cell.body['options']).toMatchObject({ imagec: { quality: cell.column === 0 ? 'high' : 'low' } });
      } else {
        expect(cell.notes).toHaveLength(1);
        expect(cell.notes[0]).toMatchObject({
          change: 'dropped',
          message: expect.stringMatching(/^quality dropped: /),
        });
      }
    }
  });

  it('seeds are dropped where a model has none, numbers clamped to what a model makes', () => {
    const plan = experimentCells(
      imageBase({ modelID: 'imagea' }),
      [
        { kind: 'model', values: ['imageb', TRAINED] },
        { kind: 'numImages', values: ['6'] },
      ],
      naming,
    );
    expectAllValid(plan.cells);
    expect(plan.cells.map((c) => c.body['numImages'])).toEqual([4, 4]);
    expect(plan.cells[0]!.notes.map((n) => n.message)).toContain('number of images 6 → 4: Image B has no 6');
    const seeded = experimentCells(
      imageBase({ modelID: 'imagea' }),
      [
        { kind: 'model', values: ['imagea', TRAINED] },
        { kind: 'seed', values: ['7'] },
      ],
      naming,
    );
    expectAllValid(seeded.cells);
    expect(seeded.cells[0]!.notes).toEqual([
      { field: 'seed', change: 'dropped', message: 'seed dropped: Image A takes no seed' },
    ]);
    expect(seeded.cells[1]!.body['seed']).toBe(7);
  });

  it('settles Image C’s size with each cell’s own ratio, and says nothing of a base setting an axis replaced', () => {
    const wide = imageBase({ modelID: 'imagec-2', aspectRatio: '21:9', options: { imagec: { imageSize: '4K' } } });
    const plan = experimentCells(wide, [{ kind: 'aspectRatio', values: ['16:9', '21:9'] }]);
    expectAllValid(plan.cells);
    expect(plan.cells.map((c) => (c.body['options'] as { imagec: { imageSize: string } }).imagec.imageSize)).toEqual([
      '4K',
      '2K',
    ]);
    expect(plan.cells[0]!.notes).toEqual([]);
    const sized = experimentCells(imageBase({ modelID: 'imagea', options: { imagea: { imageSize: '1K' } } }), [
      { kind: 'model', values: ['imageb-4_5'] },
      { kind: 'option', key: 'imageSize', values: ['4K'] },
    ]);
    expectAllValid(sized.cells);
    expect(sized.cells[0]!.body['options']).toEqual({ imageb: { imageSize: '4K' } });
    expect(sized.cells[0]!.notes).toEqual([]);
  });

  it('a trained model made public: its size becomes the nearest ratio, its own fields are dropped', () => {
    const base = imageBase({ modelID: TRAINED, width: 1024, height: 576, steps: 30, seed: 3 });
    const plan = experimentCells(base, [{ kind: 'model', values: ['imagea', TRAINED] }], naming);
    expectAllValid(plan.cells);
    expect(plan.cells[0]!.body).toEqual({ modelID: 'imagea', prompt: 'a heron', aspectRatio: '16:9' });
    expect(plan.cells[0]!.notes.map((n) => n.change)).toEqual(['mapped', 'dropped', 'dropped']);
    expect(plan.cells[1]!.body).toEqual({ ...base.body });
  });

  it('refuses, in the rules’ words, a model the account does not have or that is not ready, and a video model', () => {
    const plan = experimentCells(
      imageBase({ modelID: 'imagea' }),
      [{ kind: 'model', values: ['mdl_gone', 'mdl_busy', 'videoa-3.1', 'imagea'] }],
      naming,
    );
    expect(plan.cells.map((c) => c.refused)).toEqual([
      'modelID mdl_gone is not one of your models',
      'modelID Untitled model busy (mdl_busy) is training: only ready models can generate',
      expect.stringContaining('videoa-3.1 is a video model'),
      null,
    ]);
  });
});

describe('mapping a video request across the video models', () => {
  it('every video model gets a valid request for 21:9 and 9:16, its aspect ratio mapped or dropped', () => {
    const base = {
      kind: 'video' as const,
      body: {
        modelID: 'videoa-3.1',
        prompt: 'waves at dusk',
        numVideos: 1,
        options: { videoa: { aspectRatio: '16:9', duration: 6, resolution: '1080p', seed: 5, generateAudio: true } },
      },
    };
    const plan = experimentCells(base, [
      { kind: 'model', values: VIDEO_MODEL_IDS },
      { kind: 'aspectRatio', values: ['21:9', '9:16'] },
    ]);
    expect(plan.cells).toHaveLength(VIDEO_MODEL_IDS.length * 2);
    expectAllValid(plan.cells);
    const cell = (model: string, column: number) =>
      plan.cells.find((c) => c.body['modelID'] === model && c.column === column)!;
    expect(cell('videoa-3.1', 0).body['options']).toMatchObject({ videoa: { aspectRatio: '16:9', duration: 6 } });
    expect(cell('videoa-3.1', 0).notes.map((n) => n.message)).toEqual([
      'aspect ratio 21:9 → 16:9: Video A 3.1 has no 21:9',
    ]);
    expect(cell('videob-2.0', 0).body['options']).toMatchObject({ videob: { ratio: '21:9', duration: 6, seed: 5 } });
    expect(cell('videod-1.5', 1).body['options']).toMatchObject({
      videod: { aspectRatio: '9:16', resolution: '720p' },
    });
    const motion = cell('videoc-motion-pro', 0);
    expect(motion.body['options']).toBeUndefined();
    expect(motion.notes.map((n) => n.message)).toContain(
      'duration dropped: Motion C Pro takes none (motion models take no duration, aspectRatio or generateAudio)',
    );
    expect(motion.notes.at(-1)?.message).toBe('aspect ratio dropped: Motion C Pro takes no aspect ratio');
  });
});
