// What the Batch dialog and the Jobs view's Batches section say, in one place: a plan's count and
// cost ("18 jobs from 20 rows · about 72 credits"), its wildcard expansion ("3 lines → 9 jobs"), a
// refused row ("Row 4: …", the rules' own words), the send button, and a running batch's progress.
import type { BatchInfo, BatchPlanInfo } from '@contract/ipc/batches.ts';

const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

const credits = (n: number): string => {
  const shown = Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1);
  return `${shown} credit${n === 1 ? '' : 's'}`;
};

/** How the rows are called: a prompt list has lines, a CSV rows. */
const rowWord = (format: 'prompts' | 'csv') => (format === 'prompts' ? 'line' : 'row');

/** The rows (lines) the plan read: every row that made a job or was refused. */
export function rowsOf(plan: BatchPlanInfo): number {
  return new Set([...plan.jobs.map((j) => j.row), ...plan.refused.map((r) => r.row)]).size;
}

/** What the rows expand to, refused expansions included (a row refused whole counts once). */
export const expandedOf = (plan: BatchPlanInfo): number => plan.jobs.length + plan.refused.length;

export function costText(plan: BatchPlanInfo): string {
  const known = plan.jobs.length - plan.unknownEstimates;
  if (plan.jobs.length === 0) return 'nothing to send';
  if (known === 0) return 'cost not known yet (no jobs like these in your history)';
  const total = `about ${credits(plan.totalCredits)}`;
  return plan.unknownEstimates > 0 ? `${total} + ${count(plan.unknownEstimates, 'job')} with no estimate yet` : total;
}

/** "18 jobs from 20 rows · about 72 credits". */
export function planHeadline(plan: BatchPlanInfo, format: 'prompts' | 'csv'): string {
  return `${count(plan.jobs.length, 'job')} from ${count(rowsOf(plan), rowWord(format))} · ${costText(plan)}`;
}

/** "3 lines → 9 jobs" when {a|b} choices made more jobs than rows; null otherwise. */
export function expansionText(plan: BatchPlanInfo, format: 'prompts' | 'csv'): string | null {
  const rows = rowsOf(plan);
  const expanded = expandedOf(plan);
  return expanded > rows ? `${count(rows, rowWord(format))} → ${count(expanded, 'job')}` : null;
}

/** A refused row as the rules say it, starting with a capital: "Row 4: numImages must be …". */
export const refusedText = (message: string): string => message.charAt(0).toUpperCase() + message.slice(1);

/** The send button says what it does. */
export const sendLabel = (jobs: number): string => `Send ${count(jobs, 'job')}`;

/** "12 of 18 sent · 5 done · 2 refused" (refused and cancelled only when there are some). */
export function progressText(batch: BatchInfo): string {
  const { pending, sent, refused, cancelled, paused } = batch.items;
  const planned = pending + sent + paused + cancelled;
  const done = batch.jobs.succeeded ?? 0;
  const failed = (batch.jobs.failed ?? 0) + (batch.jobs.unknown ?? 0);
  const parts = [
    `${sent.toLocaleString('en-US')} of ${planned.toLocaleString('en-US')} sent`,
    `${done.toLocaleString('en-US')} done`,
  ];
  if (failed > 0) parts.push(`${failed.toLocaleString('en-US')} failed`);
  if (refused > 0) parts.push(`${refused.toLocaleString('en-US')} refused`);
  if (cancelled > 0) parts.push(`${cancelled.toLocaleString('en-US')} cancelled`);
  return parts.join(' · ');
}

/** The batch's state in a word or two (why it is paused: `batch.pausedReason`). */
export function stateText(batch: BatchInfo): string {
  switch (batch.state) {
    case 'running':
      return 'Sending';
    case 'paused':
      return batch.stoppedAtCap ? 'Stopped at your cap' : 'Paused';
    case 'cancelled':
      return 'Cancelled';
    case 'done':
      return 'Everything sent';
  }
}

/** How many jobs "Cancel the rest" would cancel: those not sent yet. */
export const restOf = (batch: BatchInfo): number => batch.items.pending + batch.items.paused;
