// What the account's jobs cost, as the budget counts it: the credits the service reported for a job,
// or — for a job on its way, or finished before its cost was reported — what it will probably cost,
// estimated from the account's own history exactly as Create's estimate is (jobs/cost-estimate.ts).
import type { JobKind, JobSpendingRow } from '../db/repos/jobs-repo.ts';
import { COST_SCAN_LIMIT, estimateCost, priceKey } from '../jobs/cost-estimate.ts';

/** The account's recent costs of one kind and model, newest first (JobsRepo.costHistory). */
export type CostHistory = (kind: JobKind, modelId: string, limit: number) => { request: string; credits: number }[];

export interface SpentAmount {
  /** Reported credits plus estimates. */
  total: number;
  /** The part that is only estimated. */
  estimated: number;
}

const parse = (request: string): unknown => {
  try {
    return JSON.parse(request);
  } catch {
    return null;
  }
};

/**
 * Estimates the cost of requests from the account's history, each (kind, model, price-relevant
 * settings) once per instance: a batch of a thousand queued prompts is a thousand price keys, not
 * a thousand scans of the history.
 */
export class RequestEstimator {
  readonly #history: CostHistory;
  readonly #histories = new Map<string, { request: string; credits: number }[]>();
  readonly #estimates = new Map<string, number>();
  /** Upscales have no settings: the average of the recent ones known to this estimator. */
  #upscale: number | null = null;

  constructor(history: CostHistory, upscaleCredits: readonly number[] = []) {
    this.#history = history;
    const recent = upscaleCredits.slice(-10);
    if (recent.length > 0) this.#upscale = recent.reduce((a, b) => a + b, 0) / recent.length;
  }

  /** What a request of this kind would probably cost; 0 when the account has no job like it yet. */
  credits(kind: JobKind, body: unknown): number {
    if (kind === 'upscale') return this.#upscale ?? 0;
    if (kind !== 'image' && kind !== 'video') return 0;
    const modelId = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['modelID'] : null;
    if (typeof modelId !== 'string') return 0;
    let key: string;
    try {
      key = `${kind}\u0000${modelId}\u0000${priceKey(kind, body)}`;
    } catch {
      return 0;
    }
    const known = this.#estimates.get(key);
    if (known !== undefined) return known;
    const historyKey = `${kind}\u0000${modelId}`;
    let history = this.#histories.get(historyKey);
    if (!history) {
      history = this.#history(kind, modelId, COST_SCAN_LIMIT);
      this.#histories.set(historyKey, history);
    }
    const credits = estimateCost(kind, body, history).credits ?? 0;
    this.#estimates.set(key, credits);
    return credits;
  }

  /** A job row's cost: reported, else estimated from its stored request. */
  rowCredits(row: JobSpendingRow): { credits: number; estimated: boolean } {
    if (row.credits !== null) return { credits: row.credits, estimated: false };
    return { credits: this.credits(row.kind, parse(row.request)), estimated: true };
  }
}

/** What the rows created at or after `since` cost (reported + estimated). */
export function spentSince(rows: readonly JobSpendingRow[], since: number, estimator: RequestEstimator): SpentAmount {
  let total = 0;
  let estimated = 0;
  for (const row of rows) {
    if (row.created_at < since) continue;
    const cost = estimator.rowCredits(row);
    total += cost.credits;
    if (cost.estimated) estimated += cost.credits;
  }
  return { total: round(total), estimated: round(estimated) };
}

/** Credits to two decimals (averages of estimates are fractional; float sums drift). */
export const round = (n: number): number => Math.round(n * 100) / 100;
