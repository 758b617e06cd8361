// A batch's text read and planned with contract/batch (loaded on first use by handlers/batches.ts):
// a refused file or a batch over the cap becomes a clear invalid_argument naming the text.
import { planBatch, BatchTooLargeError, type BatchPlanResult } from '../../contract/batch/batch-plan.ts';
import { BatchSourceError, readBatchCsv, readPromptList } from '../../contract/batch/batch-source.ts';
import { AppError } from '../../contract/errors.ts';
import type { BatchSourceInfo } from '../../contract/ipc/batches.ts';

/** The text read and planned; a refused file or a batch over the cap is a clear invalid_argument. */
export function planOf(source: BatchSourceInfo): BatchPlanResult {
  try {
    const rows = source.format === 'csv' ? readBatchCsv(source.text) : readPromptList(source.text);
    return planBatch(rows, source.settings ?? {});
  } catch (error) {
    if (error instanceof BatchSourceError || error instanceof BatchTooLargeError)
      throw new AppError({ code: 'invalid_argument', message: error.message, field: 'text' });
    throw error;
  }
}
