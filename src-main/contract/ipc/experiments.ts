// Channels of experiments (issue 33): one base request (Create's form) crossed with one or two axes
// (models, aspect ratio, preset, seed, numImages, prompt variants, a model option); each cell is one
// request, mapped to what its model accepts (contract/experiments/), sent as a batch
// (contract/ipc/batches.ts: paced, restartable, never twice) and saved with its axes and grid, so the
// matrix is rebuilt from the cache offline. Pause, resume and cancel are batches:pause/resume/cancel
// with the experiment's batchId.
import * as v from 'valibot';
import { axisValueProblem } from '../experiments/axis-values.ts';
import { invoke, type } from './channel.ts';
import type { AssetInfo } from './assets.ts';
import type { BatchStateInfo } from './batches.ts';
import type { BudgetCheckInfo } from './budget.ts';
import type { CostEstimateInfo, JobStateInfo } from './jobs.ts';
import { MAX_BODY_JSON_CHARS } from './jobs.ts';

export const EXPERIMENT_AXIS_KINDS = [
  'model',
  'aspectRatio',
  'preset',
  'seed',
  'numImages',
  'prompt',
  'option',
] as const;
export type ExperimentAxisKind = (typeof EXPERIMENT_AXIS_KINDS)[number];

/** The most cells (requests) one experiment makes: a clear error beyond it. */
export const EXPERIMENT_MAX_CELLS = 48;
/** The most values one axis lists. */
export const EXPERIMENT_MAX_AXIS_VALUES = 12;
/** The most axes (rows, then columns). */
export const EXPERIMENT_MAX_AXES = 2;
/** The longest value of an axis (a prompt variant is the longest kind). */
export const EXPERIMENT_MAX_VALUE_LENGTH = 10_000;

export interface ExperimentAxisInfo {
  kind: ExperimentAxisKind;
  /** The option's name for kind 'option' (e.g. 'imageSize'); null for the other kinds. */
  key: string | null;
  /** "Model", "Aspect ratio", "Seed", "Option imageSize" … */
  label: string;
}

export interface ExperimentValueInfo {
  value: string;
  /** Names, never ids: "Imagen-like A (fast)", "16:9". */
  label: string;
}

export interface ExperimentNoteInfo {
  /** The setting concerned (a body field, dotted for an option: `options.imagea.quality`). */
  field: string;
  change: 'mapped' | 'dropped';
  /** In plain words: "aspect ratio 21:9 → 16:9: this model has no 21:9". */
  message: string;
}

export interface ExperimentCellPlanInfo {
  /** Indexes into rows / columns. */
  row: number;
  column: number;
  kind: 'image' | 'video';
  /** Exactly what will be sent (valid by the contract's rules); when refused, what was tried. */
  body: Record<string, unknown>;
  /** As Create's estimate (jobs:estimate). */
  estimate: CostEstimateInfo;
  /** What was mapped or dropped for this cell's model. */
  notes: ExperimentNoteInfo[];
  /** Still invalid after mapping: the rules' words. A refused cell is never sent. */
  refused: string | null;
}

export interface ExperimentPlanInfo {
  /** 1 or 2. */
  axes: ExperimentAxisInfo[];
  /** Axis 0's values. */
  rows: ExperimentValueInfo[];
  /** Axis 1's values, or one entry { value: '', label: '' } for one axis. */
  columns: ExperimentValueInfo[];
  /** rows × columns, row-major. */
  cells: ExperimentCellPlanInfo[];
  /** The sum of the known estimates of the cells that will be sent; `unknownEstimates` have none yet. */
  totalCredits: number;
  unknownEstimates: number;
  /** From the account's history (jobs:estimate's time) at the batch's pace; null when unknown. */
  expectedSeconds: number | null;
  /** What the total would do to the caps (contract/ipc/budget.ts). */
  budget: BudgetCheckInfo;
}

/** running | paused | cancelled | done: the state of the experiment's batch. */
export type ExperimentStateInfo = BatchStateInfo;

export interface ExperimentInfo {
  id: number;
  name: string;
  createdAt: number;
  state: ExperimentStateInfo;
  pausedReason: string | null;
  /** Pause, resume, cancel: batches:pause/resume/cancel with this id. */
  batchId: number;
  axes: ExperimentAxisInfo[];
  /** How many cells (refused ones included). Named cellCount: ExperimentDetailInfo's `cells` is the list. */
  cellCount: number;
  /** Cells whose job succeeded. */
  finished: number;
  /** Cells whose job failed, or that were refused. */
  failed: number;
  /** Credits charged so far (the jobs' reported costs). */
  credits: number;
}

/** A cell's output: the library's own asset (contract/ipc/assets.ts), as a library tile shows it. */
export type ExperimentOutputInfo = AssetInfo;

export interface ExperimentCellInfo extends ExperimentCellPlanInfo {
  jobLocalId: number | null;
  jobState: JobStateInfo | null;
  /** The job's failure in words, or null. */
  error: string | null;
  /** From the library cache (works offline). */
  outputs: ExperimentOutputInfo[];
}

export interface ExperimentDetailInfo extends ExperimentInfo {
  rows: ExperimentValueInfo[];
  columns: ExperimentValueInfo[];
  cells: ExperimentCellInfo[];
}

export const experimentAxisSchema = v.pipe(
  v.strictObject(
    {
      kind: v.picklist(EXPERIMENT_AXIS_KINDS, `An axis's kind is one of ${EXPERIMENT_AXIS_KINDS.join(', ')}.`),
      key: v.optional(
        v.pipe(
          v.string('An option axis names its option as text.'),
          v.trim(),
          v.nonEmpty('An option axis names its option.'),
          v.maxLength(100, "The option's name is too long."),
        ),
      ),
      values: v.pipe(
        v.array(
          v.pipe(
            v.string('An axis value must be text.'),
            v.maxLength(EXPERIMENT_MAX_VALUE_LENGTH, 'An axis value is too long.'),
          ),
          'An axis lists its values.',
        ),
        v.minLength(1, 'An axis needs at least one value.'),
        v.maxLength(EXPERIMENT_MAX_AXIS_VALUES, `An axis has at most ${EXPERIMENT_MAX_AXIS_VALUES} values.`),
        v.check((values) => new Set(values).size === values.length, 'An axis lists the same value twice.'),
      ),
    },
    'An axis is { kind, key?, values }.',
  ),
  v.check((axis) => axis.kind !== 'option' || axis.key !== undefined, 'An option axis names its option (key).'),
  v.check((axis) => axis.kind === 'option' || axis.key === undefined, 'Only an option axis has a key.'),
  v.check(
    (axis) => axis.values.every((value) => axisValueProblem(axis.kind, value) === null),
    (issue) => {
      const axis = issue.input as { kind: string; values: string[] };
      return axis.values.map((value) => axisValueProblem(axis.kind, value)).find(Boolean) ?? 'An axis value is wrong.';
    },
  ),
);
export type ExperimentAxisInput = v.InferOutput<typeof experimentAxisSchema>;

const axisIdentity = (axis: ExperimentAxisInput) => `${axis.kind}:${axis.key ?? ''}`;
const cellCount = (axes: ExperimentAxisInput[]) => axes.reduce((n, axis) => n * axis.values.length, 1);

const baseBody = v.pipe(
  v.record(v.string(), v.unknown(), 'The base request must be an object.'),
  v.check(
    (body) => JSON.stringify(body).length <= MAX_BODY_JSON_CHARS,
    `The request is larger than ${MAX_BODY_JSON_CHARS / 1024} KB.`,
  ),
);

const planEntries = {
  base: v.strictObject(
    { kind: v.picklist(['image', 'video'], 'The base kind must be image or video.'), body: baseBody },
    'The base is { kind: image | video, body }.',
  ),
  axes: v.pipe(
    v.array(experimentAxisSchema, 'axes must be a list.'),
    v.minLength(1, 'An experiment needs at least one axis.'),
    v.maxLength(EXPERIMENT_MAX_AXES, `An experiment has at most ${EXPERIMENT_MAX_AXES} axes.`),
    v.check(
      (axes) => new Set(axes.map(axisIdentity)).size === axes.length,
      'The two axes must vary different settings.',
    ),
    v.check(
      (axes) => cellCount(axes) <= EXPERIMENT_MAX_CELLS,
      (issue) =>
        `An experiment has at most ${EXPERIMENT_MAX_CELLS} cells; this one would have ${cellCount(issue.input as ExperimentAxisInput[])}.`,
    ),
  ),
  name: v.optional(v.pipe(v.string('The name must be text.'), v.maxLength(200, 'The experiment name is too long.'))),
};

/** experiments:plan's input: the base request, its 1–2 axes, an optional name. */
export const experimentPlanSchema = v.strictObject(planEntries, 'An experiment is { base, axes, name? }.');
export type ExperimentPlanInput = v.InferOutput<typeof experimentPlanSchema>;

/** experiments:start's input: the plan's, and the user's explicit "go over the cap". */
export const experimentStartSchema = v.strictObject(
  {
    ...planEntries,
    overBudget: v.optional(v.literal(true, 'overBudget is true (the user chose to go over the cap) or left out.')),
  },
  'An experiment is { base, axes, name?, overBudget? }.',
);
export type ExperimentStartInput = v.InferOutput<typeof experimentStartSchema>;

const experimentId = v.strictObject({
  id: v.pipe(
    v.number('The experiment id must be a number.'),
    v.integer('The experiment id must be a whole number.'),
    v.minValue(1, 'No such experiment.'),
  ),
});

export const experimentsInvoke = {
  /** The cells (mapped per model, refused ones said), their estimates, the expected time and the caps' verdict. Sends nothing. */
  'experiments:plan': invoke(experimentPlanSchema, type<ExperimentPlanInfo>()),
  /** Saves and sends it as a batch. Over a cap without overBudget: 'over_budget' with the reason, nothing saved or sent. */
  'experiments:start': invoke(experimentStartSchema, type<ExperimentDetailInfo>()),
  /** Newest first. */
  'experiments:list': invoke(v.undefined(), type<ExperimentInfo[]>()),
  /** The matrix from the cache: cells, their jobs and outputs (works offline). */
  'experiments:get': invoke(experimentId, type<ExperimentDetailInfo>()),
  /** Forgets the experiment (not its jobs or assets). */
  'experiments:delete': invoke(experimentId, type<{ id: number }>()),
};

export const experimentsEvents = {
  /** On start, each cell's job change, pause/resume/cancel/done. */
  'experiments:changed': type<ExperimentInfo>(),
};
