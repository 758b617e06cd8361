// An axis as the user set it in "Try across models…" (the values ticked, or typed: seeds, prompt
// variants, numbers) turned into the axis experiments:plan takes, or the problem in words. The
// limits and each value's form are the contract's (contract/ipc/experiments.ts,
// contract/experiments/axis-values.ts); the core checks them again.
import { axisValueProblem } from '@contract/experiments/axis-values.ts';
import { TRAINED_IMAGE_FIELDS } from '@contract/rules/index.ts';
import {
  EXPERIMENT_MAX_AXIS_VALUES,
  EXPERIMENT_MAX_CELLS,
  type ExperimentAxisInput,
} from '@contract/ipc/experiments.ts';
import { valueNoun, type AxisChoice } from './axis-choices.ts';

const seedSpec = TRAINED_IMAGE_FIELDS['seed'];
/** The largest seed any model takes (a 32-bit unsigned integer, as the rules say). */
export const SEED_MAX = seedSpec?.kind === 'int' ? seedSpec.max : 4294967295;

export interface AxisDraft {
  /** The AxisChoice's id: 'model', 'seed', 'option:imageSize', … */
  choiceId: string;
  /** The values ticked, for a pick axis. */
  picked: string[];
  /** The values typed, for a text axis: seeds "1, 2, 3" or "4 random", prompts one a line, numbers. */
  text: string;
  /** Random seeds drawn when the axis was made, so "n random" stays the same seeds until the dialog closes. */
  randomSeeds: string[];
}

export type AxisValues = { ok: true; axis: ExperimentAxisInput } | { ok: false; problem: string };

/** Twelve random seeds for a new axis. */
export function drawSeeds(random: () => number = Math.random): string[] {
  return Array.from({ length: EXPERIMENT_MAX_AXIS_VALUES }, () => String(Math.floor(random() * (SEED_MAX + 1))));
}

const RANDOM = /^(\d+)\s*random$/i;

function seedValues(text: string, randomSeeds: string[]): string[] | string {
  const trimmed = text.trim();
  if (trimmed === '') return 'Type seeds (e.g. 1, 2, 3) or how many random ones (e.g. 4 random).';
  const random = RANDOM.exec(trimmed);
  if (random) {
    const n = Number(random[1]);
    if (n < 1 || n > EXPERIMENT_MAX_AXIS_VALUES) return `Ask for 1 to ${EXPERIMENT_MAX_AXIS_VALUES} random seeds.`;
    return randomSeeds.slice(0, n);
  }
  const parts = trimmed.split(/[\s,;]+/).filter(Boolean);
  const problem = parts.map((part) => axisValueProblem('seed', part)).find((p) => p !== null);
  return problem ?? parts.map((part) => String(Number(part)));
}

function numberValues(text: string): string[] | string {
  const parts = text
    .trim()
    .split(/[\s,;]+/)
    .filter(Boolean);
  if (parts.length === 0) return 'Type the values to try, e.g. 20, 50, 80.';
  for (const part of parts) if (!Number.isFinite(Number(part))) return `“${part}” is not a number.`;
  return parts.map((part) => String(Number(part)));
}

const promptValues = (text: string): string[] | string => {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.length > 0 ? lines : 'Write at least one prompt, one a line.';
};

const quoted = (value: string) => `“${value.length > 40 ? `${value.slice(0, 39)}…` : value}”`;

/** The axis experiments:plan takes, or why the draft is not one yet. */
export function axisValues(choice: AxisChoice, draft: AxisDraft): AxisValues {
  const noun = valueNoun(choice);
  let values: string[] | string;
  if (choice.input === 'pick') values = draft.picked;
  else if (choice.kind === 'seed') values = seedValues(draft.text, draft.randomSeeds);
  else if (choice.kind === 'prompt') values = promptValues(draft.text);
  else values = numberValues(draft.text);
  if (typeof values === 'string') return { ok: false, problem: values };
  if (values.length === 0) return { ok: false, problem: `Choose at least one ${noun.one}.` };
  if (values.length > EXPERIMENT_MAX_AXIS_VALUES)
    return {
      ok: false,
      problem: `Choose at most ${EXPERIMENT_MAX_AXIS_VALUES} ${noun.many}; ${values.length} are chosen.`,
    };
  const malformed = values.map((value) => axisValueProblem(choice.kind, value)).find((p) => p !== null);
  if (malformed) return { ok: false, problem: malformed };
  const twice = values.find((value, i) => values.indexOf(value) !== i);
  if (twice !== undefined) return { ok: false, problem: `${quoted(twice)} is listed twice.` };
  const axis: ExperimentAxisInput =
    choice.kind === 'option' && choice.key !== null
      ? { kind: 'option', key: choice.key, values }
      : { kind: choice.kind, values };
  return { ok: true, axis };
}

/** How many cells the axes make, and the problem when that is over the contract's cap. */
export function cellsProblem(axes: ExperimentAxisInput[]): string | null {
  const cells = axes.reduce((n, axis) => n * axis.values.length, 1);
  return cells > EXPERIMENT_MAX_CELLS
    ? `An experiment has at most ${EXPERIMENT_MAX_CELLS} jobs; these choices make ${cells}. Choose fewer values.`
    : null;
}
