// Handlers of the experiments:* channels. A plan is contract/experiments (the cells, mapped per
// model and checked by the rules) plus what only the core knows: each cell's estimate (the same
// estimator as jobs:estimate and batches:plan), the expected time from the account's history at the
// batch runner's pace, and the credit caps' verdict on the total. A start saves the experiment with
// its batch in one transaction and hands the batch to the account's batch runner; the matrix is
// read back from the database (works offline).
import { AppError } from '../../contract/errors.ts';
import type { ExperimentCells } from '../../contract/experiments/experiment-cells.ts';
import type { ExperimentNaming } from '../../contract/experiments/experiment-axes.ts';
import type {
  ExperimentCellPlanInfo,
  ExperimentDetailInfo,
  ExperimentInfo,
  ExperimentPlanInfo,
  ExperimentPlanInput,
  ExperimentStartInput,
} from '../../contract/ipc/experiments.ts';
import { clipLine } from '../../contract/job-title.ts';
import { readyJobs, type AccountServices } from '../account-services.ts';
import type { BudgetGate } from '../budgets/budget-gate.ts';
import type { AccountDb } from '../db/account-db.ts';
import { TIME_SAMPLE, expectedBatchSeconds } from '../jobs/batch-time.ts';
import type { JobsEngine } from '../jobs/engine.ts';
import { experimentInfoOf } from '../jobs/experiment-info.ts';
import { experimentDetailOf } from './experiment-detail.ts';
import type { MediaUrlFor } from './to-info.ts';

export interface ExperimentsDeps {
  host: AccountServices;
  mediaUrlFor: MediaUrlFor;
  /** The open account's credit caps (core/budgets/). */
  budget(): BudgetGate;
  /** Now, on the engines' clock. */
  now(): number;
}

const NO_ESTIMATE = { credits: null, basedOn: 0, low: null, high: null };
const notFound = () =>
  new AppError({ code: 'not_found', message: 'That experiment is not in this library.', field: 'id' });

/** Trained models' labels and states and presets' names, from the account's cache. */
const namingOf = (cache: AccountDb): ExperimentNaming => ({
  modelLabel: (id) => cache.models.get(id)?.label,
  modelStatus: (id) => cache.models.get(id)?.status,
  presetName: (slug) => cache.presets.get(slug)?.name,
});

/** The planning code loads at the first plan (like the engine's, after the start), not with the core. */
const planning = () =>
  Promise.all([import('../../contract/experiments/experiment-cells.ts'), import('../jobs/batch-runner.ts')]).then(
    ([cells, runner]) => ({ experimentCells: cells.experimentCells, inFlight: runner.BATCH_IN_FLIGHT }),
  );

async function cellsOf(cache: AccountDb, input: ExperimentPlanInput): Promise<ExperimentCells> {
  const { experimentCells } = await planning();
  try {
    return experimentCells(input.base, input.axes, namingOf(cache));
  } catch (error) {
    throw new AppError({
      code: 'invalid_argument',
      message: error instanceof Error ? error.message : String(error),
      field: 'axes',
    });
  }
}

async function planOf(
  engine: JobsEngine,
  cache: AccountDb,
  budget: BudgetGate,
  input: ExperimentPlanInput,
): Promise<ExperimentPlanInfo> {
  const planned = await cellsOf(cache, input);
  const sendable = planned.cells.filter((cell) => cell.refused === null);
  const estimates = await engine.estimateMany(sendable.map((cell) => ({ kind: cell.kind, body: cell.body })));
  let next = 0;
  let totalCredits = 0;
  let unknownEstimates = 0;
  const cells: ExperimentCellPlanInfo[] = planned.cells.map((cell) => {
    if (cell.refused !== null) return { ...cell, estimate: NO_ESTIMATE };
    const estimate = estimates[next++]!;
    if (estimate.credits === null) unknownEstimates += 1;
    else totalCredits += estimate.credits;
    return { ...cell, estimate };
  });
  totalCredits = Math.round(totalCredits * 100) / 100;
  const expectedSeconds = expectedBatchSeconds(
    sendable.map((cell) => ({ kind: cell.kind, modelId: String(cell.body['modelID']) })),
    (kind, modelId) => cache.jobs.timeHistory(kind, modelId, TIME_SAMPLE),
    (await planning()).inFlight,
  );
  return { ...planned, cells, totalCredits, unknownEstimates, expectedSeconds, budget: budget.check(totalCredits) };
}

/** "a heron at dawn · Model × Aspect ratio", or the name given. */
function nameOf(input: ExperimentStartInput, plan: ExperimentPlanInfo): string {
  const given = input.name?.trim();
  if (given) return given;
  const prompt = input.base.body['prompt'];
  const axes = plan.axes.map((axis) => axis.label).join(' × ');
  return typeof prompt === 'string' && prompt.trim() !== '' ? `${clipLine(prompt, 60)} · ${axes}` : axes;
}

export function experimentsHandlers(deps: ExperimentsDeps) {
  const engine = () => readyJobs(deps.host);
  const cache = () => deps.host.cache();
  const row = (id: number) =>
    cache().experiments.get(id) ??
    (() => {
      throw notFound();
    })();
  return {
    'experiments:plan': async (input: ExperimentPlanInput): Promise<ExperimentPlanInfo> =>
      planOf(await engine(), cache(), deps.budget(), input),
    'experiments:start': async (input: ExperimentStartInput): Promise<ExperimentDetailInfo> => {
      const jobs = await engine();
      const db = cache();
      const plan = await planOf(jobs, db, deps.budget(), input);
      const refused = plan.cells.filter((cell) => cell.refused !== null);
      if (refused.length === plan.cells.length) {
        throw new AppError({
          code: 'invalid_argument',
          message: `Nothing to send: every cell was refused (${refused[0]?.refused ?? 'no cells'}).`,
          field: 'axes',
        });
      }
      if (!plan.budget.ok && input.overBudget !== true)
        throw new AppError({ code: 'over_budget', message: plan.budget.reason });
      const saved = db.experiments.create(
        {
          name: nameOf(input, plan),
          kind: input.base.kind,
          axes: plan.axes,
          rows: plan.rows,
          columns: plan.columns,
          cells: plan.cells,
          overBudget: input.overBudget === true,
        },
        db.batches,
        deps.now(),
      );
      jobs.batches.started(saved.batch_id);
      return experimentDetailOf(db, saved, deps.mediaUrlFor);
    },
    'experiments:list': async (): Promise<ExperimentInfo[]> => {
      const db = cache();
      return db.experiments.list(200).map((experiment) => experimentInfoOf(db, experiment));
    },
    'experiments:get': async ({ id }: { id: number }): Promise<ExperimentDetailInfo> =>
      experimentDetailOf(cache(), row(id), deps.mediaUrlFor),
    'experiments:delete': async ({ id }: { id: number }): Promise<{ id: number }> => {
      const experiment = row(id);
      const batch = cache().batches.get(experiment.batch_id);
      // What it has not sent yet is not sent for an experiment nobody can see any more.
      if (batch && (batch.state === 'running' || batch.state === 'paused'))
        (await engine()).batches.cancel(experiment.batch_id);
      cache().experiments.delete(id);
      return { id };
    },
  };
}
