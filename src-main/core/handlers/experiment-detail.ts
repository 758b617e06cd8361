// An experiment's matrix as the channels say it (ExperimentDetailInfo): each cell's planned request,
// notes and estimate, its job's state and failure in words, and its outputs as library assets — all
// read from the account's database, so a saved experiment reopens with the service down.
import type { CostEstimateInfo, JobStateInfo } from '../../contract/ipc/jobs.ts';
import type {
  ExperimentCellInfo,
  ExperimentDetailInfo,
  ExperimentNoteInfo,
  ExperimentOutputInfo,
  ExperimentValueInfo,
} from '../../contract/ipc/experiments.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { ExperimentCellRow, ExperimentRow } from '../db/repos/experiments-repo.ts';
import { parseJson } from '../db/values.ts';
import { experimentInfoOf } from '../jobs/experiment-info.ts';
import { outputsOf } from '../jobs/job-info.ts';
import { assetToInfo, type MediaUrlFor } from './to-info.ts';

const NO_ESTIMATE: CostEstimateInfo = { credits: null, basedOn: 0, low: null, high: null };

const record = (json: string): Record<string, unknown> => {
  const parsed = parseJson(json);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
};
const list = <T>(json: string): T[] => {
  const parsed = parseJson(json);
  return Array.isArray(parsed) ? (parsed as T[]) : [];
};

/** Why a cell has no result, in words: its job's failure, a refusal at sending, or a cancelled batch. */
function errorOf(cell: ExperimentCellRow): string | null {
  if (cell.job_state === 'failed' || cell.job_state === 'unknown') return cell.job_error ?? 'The job failed.';
  if (cell.item_state === 'refused' && cell.refused === null) return cell.problem ?? 'The service refused it.';
  if (cell.item_state === 'cancelled') return 'Not sent: the experiment was cancelled.';
  return null;
}

function outputsOfCell(cache: AccountDb, cell: ExperimentCellRow, mediaUrlFor: MediaUrlFor): ExperimentOutputInfo[] {
  if (cell.job_outputs === null) return [];
  const out: ExperimentOutputInfo[] = [];
  for (const ref of outputsOf({ outputs: cell.job_outputs })) {
    const asset = cache.assets.get(ref.kind, ref.id);
    if (asset) out.push(assetToInfo(asset, mediaUrlFor));
  }
  return out;
}

export function experimentDetailOf(
  cache: AccountDb,
  row: ExperimentRow,
  mediaUrlFor: MediaUrlFor,
): ExperimentDetailInfo {
  const cells: ExperimentCellInfo[] = cache.experiments.cells(row.id).map((cell) => ({
    row: cell.row,
    column: cell.column,
    kind: row.kind,
    body: record(cell.body),
    estimate: { ...NO_ESTIMATE, ...record(cell.estimate) } as CostEstimateInfo,
    notes: list<ExperimentNoteInfo>(cell.notes),
    refused: cell.refused,
    jobLocalId: cell.job_local_id,
    jobState: cell.job_state as JobStateInfo | null,
    error: errorOf(cell),
    outputs: outputsOfCell(cache, cell, mediaUrlFor),
  }));
  return {
    ...experimentInfoOf(cache, row),
    rows: list<ExperimentValueInfo>(row.rows),
    columns: list<ExperimentValueInfo>(row.columns),
    cells,
  };
}
