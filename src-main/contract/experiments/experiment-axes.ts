// An experiment's axes: what each is called, what its values are called (names, never ids), the
// check of each value's form, and the expansion of the axes into cells (row-major).
import type { ExperimentAxisInfo, ExperimentAxisKind, ExperimentValueInfo } from '../ipc/experiments.ts';
import { EXPERIMENT_MAX_CELLS } from '../ipc/experiments.ts';
import { clipLine } from '../job-title.ts';
import { modelName, presetName, wordsOfSlug } from '../names.ts';

/** What the words of an experiment need from the account: its models' labels and states, its presets' names. */
export interface ExperimentNaming {
  /** A trained model's label, when the account knows it. */
  modelLabel?(id: string): string | null | undefined;
  /** A trained model's status ('ready', 'training', …); undefined: not one of the account's models. Absent: not checked. */
  modelStatus?(id: string): string | undefined;
  presetName?(slug: string): string | undefined;
}

export interface ExperimentAxis {
  kind: ExperimentAxisKind;
  key?: string | undefined;
  values: readonly string[];
}

const AXIS_LABELS: Record<Exclude<ExperimentAxisKind, 'option' | 'numImages'>, string> = {
  model: 'Model',
  aspectRatio: 'Aspect ratio',
  preset: 'Preset',
  seed: 'Seed',
  prompt: 'Prompt',
};

/** "Model", "Aspect ratio", "Number of images" (of videos for a video experiment), an option by its name ("Image size"). */
export function axisLabel(axis: ExperimentAxis, kind: 'image' | 'video'): string {
  if (axis.kind === 'option') return wordsOfSlug(axis.key ?? 'option');
  if (axis.kind === 'numImages') return kind === 'video' ? 'Number of videos' : 'Number of images';
  return AXIS_LABELS[axis.kind];
}

export const axisInfo = (axis: ExperimentAxis, kind: 'image' | 'video'): ExperimentAxisInfo => ({
  kind: axis.kind,
  key: axis.kind === 'option' ? (axis.key ?? null) : null,
  label: axisLabel(axis, kind),
});

/** A value in words: a model's name, a preset's name, "2 images", a prompt on one line. */
export function valueLabel(
  axis: ExperimentAxis,
  value: string,
  kind: 'image' | 'video',
  naming: ExperimentNaming = {},
): string {
  switch (axis.kind) {
    case 'model':
      return modelName(value, { label: naming.modelLabel?.(value) });
    case 'preset':
      return presetName(value.trim() || null, naming.presetName);
    case 'numImages': {
      const n = Number(value);
      const noun = kind === 'video' ? 'video' : 'image';
      return `${value} ${noun}${n === 1 ? '' : 's'}`;
    }
    case 'prompt':
      return clipLine(value, 60) || 'No prompt';
    default:
      return value;
  }
}

export const valueInfos = (
  axis: ExperimentAxis,
  kind: 'image' | 'video',
  naming?: ExperimentNaming,
): ExperimentValueInfo[] => axis.values.map((value) => ({ value, label: valueLabel(axis, value, kind, naming) }));

/** How many cells the axes make. */
export const cellCountOf = (axes: readonly ExperimentAxis[]): number =>
  axes.reduce((n, axis) => n * axis.values.length, 1);

export interface ExpandedCell {
  row: number;
  column: number;
  /** Each axis's value for this cell, in the axes' order. */
  values: string[];
}

/** The cells of 1 or 2 axes, row-major (rows: axis 0, columns: axis 1 or one column); refused beyond the cap. */
export function expandAxes(axes: readonly ExperimentAxis[]): ExpandedCell[] {
  const count = cellCountOf(axes);
  if (axes.length === 0) throw new Error('An experiment needs at least one axis.');
  if (count > EXPERIMENT_MAX_CELLS)
    throw new Error(`An experiment has at most ${EXPERIMENT_MAX_CELLS} cells; this one would have ${count}.`);
  const [rows, columns] = axes;
  const cells: ExpandedCell[] = [];
  rows!.values.forEach((rowValue, row) => {
    if (!columns) cells.push({ row, column: 0, values: [rowValue] });
    else columns.values.forEach((columnValue, column) => cells.push({ row, column, values: [rowValue, columnValue] }));
  });
  return cells;
}
