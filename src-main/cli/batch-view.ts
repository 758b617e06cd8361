// What `atelier batch` prints: the planned jobs, the refused rows (`row N: <problem>`), the
// estimated total, and after sending, where each item stands. One document with --json.
import type { BatchDetailInfo, BatchPlanInfo, PlannedJobInfo } from '../contract/ipc/batches.ts';
import { table } from './output.ts';

export interface BatchPlanView {
  jobs: {
    row: number;
    expansion: number;
    of: number;
    kind: 'image' | 'video';
    body: Record<string, unknown>;
    estimatedCredits: number | null;
  }[];
  refused: { row: number; expansion: number | null; of: number; message: string }[];
  /** The sum of the known estimates; `withoutEstimate` jobs have none yet (no such job in the history). */
  estimatedCredits: number;
  withoutEstimate: number;
}

export function planView(plan: BatchPlanInfo): BatchPlanView {
  return {
    jobs: plan.jobs.map((job: PlannedJobInfo) => ({
      row: job.row,
      expansion: job.expansion,
      of: job.of,
      kind: job.kind,
      body: job.body,
      estimatedCredits: job.estimate.credits,
    })),
    refused: plan.refused.map(({ row, expansion, of, message }) => ({ row, expansion, of, message })),
    estimatedCredits: plan.totalCredits,
    withoutEstimate: plan.unknownEstimates,
  };
}

const settingsOf = (body: Record<string, unknown>): string =>
  Object.entries(body)
    .filter(([key]) => key !== 'modelID' && key !== 'prompt')
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' ');

export function totalLine(view: BatchPlanView): string {
  const jobs = `${view.jobs.length} job${view.jobs.length === 1 ? '' : 's'}`;
  const refused = view.refused.length > 0 ? `, ${view.refused.length} refused` : '';
  const unknown = view.withoutEstimate > 0 ? ` (${view.withoutEstimate} without an estimate yet)` : '';
  return `${jobs}${refused}; estimated total ${view.estimatedCredits} credits${unknown}`;
}

export function planLines(view: BatchPlanView): string[] {
  const rows = view.jobs.map((job) => [
    job.of > 1 ? `${job.row}.${job.expansion}` : String(job.row),
    job.kind,
    String(job.body['modelID'] ?? ''),
    typeof job.body['prompt'] === 'string' ? job.body['prompt'] : '',
    settingsOf(job.body),
    job.estimatedCredits === null ? '?' : String(job.estimatedCredits),
  ]);
  return [
    ...(rows.length > 0 ? table(['ROW', 'KIND', 'MODEL', 'PROMPT', 'SETTINGS', 'CREDITS'], rows) : []),
    ...view.refused.map((r) => r.message),
    totalLine(view),
  ];
}

export interface BatchSentView extends BatchPlanView {
  batchId: number;
  state: BatchDetailInfo['state'];
  pausedReason: string | null;
  sent: number;
  items: { row: number; expansion: number | null; state: string; jobLocalId: number | null; jobState: string | null }[];
}

export function sentView(plan: BatchPlanView, batch: BatchDetailInfo): BatchSentView {
  return {
    ...plan,
    batchId: batch.id,
    state: batch.state,
    pausedReason: batch.pausedReason,
    sent: batch.items.sent,
    items: batch.list.map((item) => ({
      row: item.row,
      expansion: item.expansion,
      state: item.state,
      jobLocalId: item.jobLocalId,
      jobState: item.jobState,
    })),
  };
}

export function sentLines(view: BatchSentView): string[] {
  const jobs = view.items.filter((item) => item.state === 'sent');
  const byState = new Map<string, number>();
  for (const item of jobs) byState.set(item.jobState ?? 'sent', (byState.get(item.jobState ?? 'sent') ?? 0) + 1);
  const states = [...byState].map(([state, n]) => `${n} ${state}`).join(', ');
  return [
    `batch ${view.batchId}: ${view.sent} of ${view.jobs.length} job${view.jobs.length === 1 ? '' : 's'} sent${states ? ` (${states})` : ''}`,
    ...(view.pausedReason ? [`paused: ${view.pausedReason}`] : []),
    ...view.refused.map((r) => `${r.message} (not sent)`),
    `estimated total ${view.estimatedCredits} credits`,
  ];
}
