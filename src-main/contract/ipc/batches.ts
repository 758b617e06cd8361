// Channels of batches (issue 33): plan a prompt list or CSV (expanded, checked row by row, with
// estimates), start it (sent through the outbox at a pace the service accepts), follow, pause,
// resume, cancel the rest. The planning itself is contract/batch (the same code the CLI runs).
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import type { CostEstimateInfo, JobStateInfo } from './jobs.ts';

/** The text of a batch and the settings every row shares (columns of contract/batch/batch-columns.ts). */
export const batchSourceSchema = v.object({
  /** `prompts`: one prompt a line; `csv`: a header naming the columns, then one row a job. */
  format: v.picklist(['prompts', 'csv'], 'format must be prompts or csv.'),
  text: v.pipe(v.string('The batch text must be text.'), v.maxLength(20_000_000, 'The batch text is too long.')),
  /** Settings under every row (a cell of the row wins), by column name: model, aspect-ratio, option:KEY… */
  settings: v.optional(
    v.record(
      v.pipe(v.string(), v.maxLength(200, 'A setting name is too long.')),
      v.pipe(v.string('A setting must be text.'), v.maxLength(100_000, 'A setting is too long.')),
    ),
  ),
});
export type BatchSourceInfo = v.InferInput<typeof batchSourceSchema>;

export interface PlannedJobInfo {
  /** The row (CSV, after the header) or line (prompt list) it came from. */
  row: number;
  /** Which of its row's expansions, 1-based; `of` how many the row made. */
  expansion: number;
  of: number;
  kind: 'image' | 'video';
  body: Record<string, unknown>;
  estimate: CostEstimateInfo;
}

export interface RefusedRowInfo {
  row: number;
  expansion: number | null;
  of: number;
  /** `row N: <problem>` in the rules' own words. */
  message: string;
  fields: { field: string; message: string }[];
}

export interface BatchPlanInfo {
  jobs: PlannedJobInfo[];
  refused: RefusedRowInfo[];
  /** The sum of the jobs' estimates that are known; `unknownEstimates` jobs have none yet. */
  totalCredits: number;
  unknownEstimates: number;
}

export type BatchStateInfo = 'running' | 'paused' | 'cancelled' | 'done';
export type BatchItemStateInfo = 'pending' | 'sent' | 'refused' | 'cancelled' | 'paused';

export interface BatchInfo {
  id: number;
  name: string;
  state: BatchStateInfo;
  /** Why it is paused ("Paused by you.", "Stopped at your credit cap. This needs about 4 credits; …"). */
  pausedReason: string | null;
  /** Paused by the credit caps: a resume goes on only with `overBudget` (the user's "Resume past the cap"). */
  stoppedAtCap: boolean;
  createdAt: number;
  items: Record<BatchItemStateInfo, number>;
  /** Its sent items' jobs by state (queued, running, succeeded, …). */
  jobs: Partial<Record<JobStateInfo, number>>;
}

export interface BatchItemInfo {
  position: number;
  row: number;
  expansion: number | null;
  of: number;
  kind: 'image' | 'video';
  prompt: string | null;
  modelId: string | null;
  state: BatchItemStateInfo;
  /** Why it was refused (`row N: …`), or null. */
  problem: string | null;
  estimate: number | null;
  /** The job it became (jobs:get), once sent. */
  jobLocalId: number | null;
  jobState: JobStateInfo | null;
}

export interface BatchDetailInfo extends BatchInfo {
  list: BatchItemInfo[];
}

const batchId = v.object({
  id: v.pipe(
    v.number('The batch id must be a number.'),
    v.integer('The batch id must be a whole number.'),
    v.minValue(1, 'No such batch.'),
  ),
});

export const batchesInvoke = {
  'batches:plan': invoke(batchSourceSchema, type<BatchPlanInfo>()),
  'batches:start': invoke(
    v.object({
      ...batchSourceSchema.entries,
      name: v.optional(v.pipe(v.string(), v.maxLength(200, 'The batch name is too long.'))),
      /** The user's explicit "Send anyway": this batch goes past the credit caps (core/budgets). */
      overBudget: v.optional(v.boolean('overBudget must be true or false.')),
    }),
    type<BatchDetailInfo>(),
  ),
  'batches:list': invoke(v.undefined(), type<BatchInfo[]>()),
  'batches:get': invoke(batchId, type<BatchDetailInfo>()),
  'batches:pause': invoke(batchId, type<BatchInfo>()),
  'batches:resume': invoke(
    v.object({
      ...batchId.entries,
      /** The user's explicit "Resume past the cap": the rest goes past the credit caps. */
      overBudget: v.optional(v.boolean('overBudget must be true or false.')),
    }),
    type<BatchInfo>(),
  ),
  'batches:cancel': invoke(batchId, type<BatchInfo>()),
};

export const batchesEvents = {
  'batches:changed': type<BatchInfo>(),
};
