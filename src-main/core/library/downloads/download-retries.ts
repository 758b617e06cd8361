// What a step's outcome does to its download row: retry later (the one background backoff,
// api/backoff.ts retryDelay: full jitter, a Retry-After as a floor), give up after MAX_ATTEMPTS,
// wait for a paused queue, or fail for good. Whether a failure is retried at all was decided by
// the one classifier (download-runner.ts). Pure: the queue saves, mirrors and announces it.
import type { ErrorCode, ErrorInfo } from '../../../contract/errors.ts';
import { BACKGROUND_BACKOFF, retryDelay } from '../../api/backoff.ts';
import type { DownloadRow } from '../../db/repos/downloads-repo.ts';
import { DISK_FULL_MESSAGE } from './download-info.ts';
import type { StepOutcome } from './download-runner.ts';

export const MAX_ATTEMPTS = 8;

/** Why a running step was stopped (the AbortSignal's reason). */
export type AbortReason = 'pause-item' | 'pause-queue' | 'cancel' | 'stop';

/** What the queue does after the row was updated in memory. */
export type OutcomeEffect =
  | { kind: 'succeeded' }
  /** Only the download row changed (a later poll). */
  | { kind: 'save' }
  /** The row and its asset's file state changed: save both, announce. */
  | { kind: 'save-and-mirror' }
  /** The disk is full: pause the whole queue first, then save and announce. */
  | { kind: 'disk-full' };

export interface OutcomeContext {
  now: number;
  reason: AbortReason | null;
  /** Delay before retry number `attempts` after `info`. */
  backoff(info: ErrorInfo, attempts: number): number;
}

/** The one background backoff (a media host that keeps failing is retried for minutes, never hammered). */
export const retryDelayOf =
  (random: () => number) =>
  (info: ErrorInfo, attempts: number): number =>
    retryDelay(info, attempts, random, BACKGROUND_BACKOFF);

export function failRow(row: DownloadRow, code: ErrorCode, message: string): void {
  row.state = 'failed';
  row.error = message;
  row.error_code = code;
  row.next_attempt_at = null;
}

/** Updates `row` for `outcome` and says what is left to do. */
export function applyOutcome(row: DownloadRow, outcome: StepOutcome, ctx: OutcomeContext): OutcomeEffect {
  const { now, reason } = ctx;
  switch (outcome.kind) {
    case 'succeeded':
      return { kind: 'succeeded' };
    case 'later':
      row.next_attempt_at = outcome.at;
      return { kind: 'save' };
    case 'aborted':
      if (reason === 'pause-item') row.state = 'paused';
      else if (row.state === 'downloading') row.state = 'queued';
      return { kind: 'save-and-mirror' };
    case 'disk_full':
      row.state = 'queued';
      row.error = DISK_FULL_MESSAGE;
      row.error_code = 'disk_full';
      return { kind: 'disk-full' };
    case 'retry': {
      row.attempts = outcome.progressed ? 1 : row.attempts + 1;
      if (row.attempts >= MAX_ATTEMPTS) {
        failRow(row, outcome.info.code, `${outcome.info.message} (gave up after ${row.attempts} tries; press Retry)`);
        return { kind: 'save-and-mirror' };
      }
      row.error = outcome.info.message;
      row.error_code = outcome.info.code;
      if (outcome.immediately) {
        // A dead signed link: the next step asks for a fresh one (a new preparation for MP4).
        row.url = null;
        row.prepare_percent = null;
        row.state = 'queued';
        row.next_attempt_at = row.attempts <= 2 ? now : now + ctx.backoff(outcome.info, row.attempts);
      } else {
        row.next_attempt_at = now + ctx.backoff(outcome.info, row.attempts);
        if (row.state !== 'preparing') row.state = 'queued';
      }
      return { kind: 'save-and-mirror' };
    }
    case 'failed':
      failRow(row, outcome.code, outcome.message);
      return { kind: 'save-and-mirror' };
  }
}
