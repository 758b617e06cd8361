// The one place a batch's rows become the channels' BatchInfo / BatchDetailInfo.
import type { BatchDetailInfo, BatchInfo, BatchItemInfo } from '../../contract/ipc/batches.ts';
import type { JobStateInfo } from '../../contract/ipc/jobs.ts';
import type { BatchItemRow, BatchRow, BatchesRepo } from '../db/repos/batches-repo.ts';
import { parseJson } from '../db/values.ts';

/** How a pause by the credit caps starts its reason (BatchInfo.stoppedAtCap reads it; batch-runner.ts writes it). */
export const CAP_STOP = 'Stopped at your credit cap. ';

export function batchInfoOf(store: BatchesRepo, row: BatchRow): BatchInfo {
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    pausedReason: row.paused_reason,
    stoppedAtCap: row.state === 'paused' && (row.paused_reason?.startsWith(CAP_STOP) ?? false),
    createdAt: row.created_at,
    items: store.counts(row.id),
    jobs: store.jobStates(row.id) as Partial<Record<JobStateInfo, number>>,
  };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function batchItemInfoOf(item: BatchItemRow): BatchItemInfo {
  const body = parseJson(item.request);
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return {
    position: item.position,
    row: item.row,
    expansion: item.expansion,
    of: item.of,
    kind: item.kind,
    prompt: text(record['prompt']),
    modelId: text(record['modelID']),
    state: item.state,
    problem: item.problem,
    estimate: item.estimate,
    jobLocalId: item.job_local_id,
    jobState: item.job_state as JobStateInfo | null,
  };
}

export function batchDetailOf(store: BatchesRepo, row: BatchRow): BatchDetailInfo {
  return { ...batchInfoOf(store, row), list: store.items(row.id).map(batchItemInfoOf) };
}
