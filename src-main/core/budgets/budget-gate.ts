// The one budget policy: what the open account spent today and this month (local days), against its
// caps, and whether a paid request estimated at N credits may be sent. Every path that spends asks
// it — jobs:submit (unless the user chose "Generate anyway": overBudget), the batch runner through
// its `check` port — and the refusal's words are the ones the user reads.
import type { BudgetCheckInfo, BudgetStatusInfo, CreditCapsInfo } from '../../contract/ipc/budget.ts';
import type { JobKind, JobSpendingRow } from '../db/repos/jobs-repo.ts';
import { startOfDay, startOfMonth } from './local-calendar.ts';
import { RequestEstimator, round, spentSince, type CostHistory } from './spent.ts';

/** The port a runner of many requests takes (the batch runner): one method, called before each send. */
export interface BudgetPort {
  check(credits: number): BudgetCheckInfo;
}

export interface BudgetGateDeps {
  /** The account's jobs as the budget reads them (JobsRepo). */
  jobs: { spendingSince(since: number): JobSpendingRow[]; costHistory: CostHistory };
  /** The open account's caps (settings). */
  caps(): CreditCapsInfo;
  /** Wall-clock now (injected: tests move it across midnights and months). */
  now(): number;
}

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** "24 credits", "1 credit", "2.5 credits". */
export const creditsText = (n: number): string => `${number.format(n)} ${n === 1 ? 'credit' : 'credits'}`;

export class BudgetGate implements BudgetPort {
  readonly #deps: BudgetGateDeps;

  constructor(deps: BudgetGateDeps) {
    this.#deps = deps;
  }

  /** Spent today and this month (reported credits plus estimates of jobs not charged yet), the caps, what is left. */
  status(): BudgetStatusInfo {
    const now = this.#deps.now();
    const caps = this.#deps.caps();
    const monthStart = startOfMonth(now);
    const rows = this.#deps.jobs.spendingSince(monthStart);
    const estimator = this.estimator(rows);
    const today = spentSince(rows, startOfDay(now), estimator);
    const month = spentSince(rows, monthStart, estimator);
    const left = (cap: number | null, spent: number): number | null =>
      cap === null ? null : round(Math.max(0, cap - spent));
    return {
      caps,
      spentToday: today.total,
      spentThisMonth: month.total,
      estimatedToday: today.estimated,
      estimatedThisMonth: month.estimated,
      remainingToday: left(caps.daily, today.total),
      remainingThisMonth: left(caps.monthly, month.total),
    };
  }

  /**
   * May a request estimated at `credits` be sent? Refused when it would pass a cap, or when a cap is
   * used up already (a request of unknown cost, 0 here, still costs something). The daily cap is
   * named first when both would be passed.
   */
  check(credits: number): BudgetCheckInfo {
    const status = this.status();
    const needs = Math.max(0, Number.isFinite(credits) ? credits : 0);
    const limits = [
      { cap: status.caps.daily, spent: status.spentToday, period: 'daily', when: 'today' },
      { cap: status.caps.monthly, spent: status.spentThisMonth, period: 'monthly', when: 'this month' },
    ] as const;
    for (const { cap, spent, period, when } of limits) {
      if (cap === null) continue;
      if (spent >= cap) {
        return {
          ok: false,
          reason: `Your ${period} cap of ${creditsText(cap)} is used up: ${creditsText(spent)} ${when}${needs > 0 ? `, and this needs about ${creditsText(needs)}` : ''}.`,
        };
      }
      if (spent + needs > cap) {
        return {
          ok: false,
          reason: `This needs about ${creditsText(needs)}; ${number.format(spent)} of your ${number.format(cap)} ${period} credits are used.`,
        };
      }
    }
    return { ok: true };
  }

  /** What a request would probably cost, from the account's own history (0 when it has none like it). */
  estimate(kind: JobKind, body: unknown): number {
    return this.estimator(this.#deps.jobs.spendingSince(startOfMonth(this.#deps.now()))).credits(kind, body);
  }

  /** An estimator over the account's history; upscales priced from the recent ones among `rows`. */
  estimator(rows: readonly JobSpendingRow[]): RequestEstimator {
    const upscales = rows.filter((r) => r.kind === 'upscale' && r.credits !== null).map((r) => r.credits as number);
    const { jobs } = this.#deps;
    return new RequestEstimator((kind, modelId, limit) => jobs.costHistory(kind, modelId, limit), upscales);
  }
}
