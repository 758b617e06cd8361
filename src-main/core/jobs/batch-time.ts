// How long a batch of requests will probably take, from this account's own recent jobs: each
// model's typical time from sending to the service's answer and to the end (medians of its last
// jobs), and the batch runner's pace (at most `inFlight` requests unanswered at once; the jobs
// themselves run side by side on the service). Unknown (null) while a model has no finished job yet.
import type { JobKind } from '../db/repos/job-row.ts';

export type TimeHistory = (kind: JobKind, modelId: string) => readonly { took: number; answered: number | null }[];

/** Jobs read per model: recent enough to follow the service's speed. */
export const TIME_SAMPLE = 10;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Seconds until the last of `requests` (in sending order) probably ends; null when any model has no history. */
export function expectedBatchSeconds(
  requests: readonly { kind: JobKind; modelId: string }[],
  history: TimeHistory,
  inFlight: number,
): number | null {
  if (requests.length === 0) return 0;
  const typical = new Map<string, { took: number; answered: number }>();
  for (const { kind, modelId } of requests) {
    const key = `${kind}\u0000${modelId}`;
    if (typical.has(key)) continue;
    const rows = history(kind, modelId).filter((r) => Number.isFinite(r.took) && r.took >= 0);
    if (rows.length === 0) return null;
    const answers = rows.map((r) => r.answered).filter((a): a is number => a !== null && a >= 0);
    const took = median(rows.map((r) => r.took));
    typical.set(key, { took, answered: Math.min(took, answers.length > 0 ? median(answers) : 0) });
  }
  // A free slot sends the next request; a slot is free again once its request was answered.
  const slots: number[] = Array.from({ length: Math.max(1, inFlight) }, () => 0);
  let end = 0;
  for (const { kind, modelId } of requests) {
    const { took, answered } = typical.get(`${kind}\u0000${modelId}`)!;
    const slot = slots.indexOf(Math.min(...slots));
    const start = slots[slot]!;
    slots[slot] = start + answered;
    end = Math.max(end, start + took);
  }
  return Math.round(end / 1000);
}
