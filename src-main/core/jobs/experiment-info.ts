// The one place an experiment's rows become the channels' ExperimentInfo (its batch's state, its
// cells' counts and credits). The matrix's cells (ExperimentDetailInfo) are handlers/experiment-detail.ts.
import type { ExperimentAxisInfo, ExperimentInfo } from '../../contract/ipc/experiments.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { ExperimentRow } from '../db/repos/experiments-repo.ts';
import { parseJson } from '../db/values.ts';

const listOf = <T>(json: string): T[] => {
  const parsed = parseJson(json);
  return Array.isArray(parsed) ? (parsed as T[]) : [];
};

export function experimentInfoOf(cache: AccountDb, row: ExperimentRow): ExperimentInfo {
  const batch = cache.batches.mustGet(row.batch_id);
  const summary = cache.experiments.summary(row.id);
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    state: batch.state,
    pausedReason: batch.paused_reason,
    batchId: row.batch_id,
    axes: listOf<ExperimentAxisInfo>(row.axes),
    cellCount: summary.cells,
    finished: summary.finished,
    failed: summary.failed,
    credits: Math.round(summary.credits * 100) / 100,
  };
}

/** The experiment a batch was sent for, as the channels say it; null for a plain batch. */
export function experimentOfBatch(cache: AccountDb, batchId: number): ExperimentInfo | null {
  const row = cache.experiments.byBatch(batchId);
  return row ? experimentInfoOf(cache, row) : null;
}
