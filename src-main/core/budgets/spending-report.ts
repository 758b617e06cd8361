// The Spending view's figures: the account's real job credits (what the service reported) by local
// day over the last 30 days and by model, and this month's total against the caps. Estimates are
// left out: a job counts here once its cost is known; finished jobs still waiting for it are counted.
import type { CreditCapsInfo, SpendingInfo, SpendingModelInfo } from '../../contract/ipc/budget.ts';
import type { JobSpendingRow } from '../db/repos/jobs-repo.ts';
import { dayKey, lastDays, startOfMonth } from './local-calendar.ts';
import { round } from './spent.ts';

export const SPENDING_DAYS = 30;

export function spendingReport(
  jobs: { spendingSince(since: number): JobSpendingRow[] },
  caps: CreditCapsInfo,
  now: number,
): SpendingInfo {
  const days = lastDays(now, SPENDING_DAYS);
  const monthStart = startOfMonth(now);
  const since = Math.min(days[0]?.start ?? monthStart, monthStart);
  const byDay = new Map(days.map((d) => [d.date, { date: d.date, credits: 0, jobs: 0 }]));
  const byModel = new Map<string | null, SpendingModelInfo>();
  let monthTotal = 0;
  let uncosted = 0;
  const windowStart = days[0]?.start ?? since;
  for (const row of jobs.spendingSince(since)) {
    if (row.credits === null) {
      if (row.state === 'succeeded' && row.created_at >= windowStart) uncosted += 1;
      continue;
    }
    if (row.created_at >= monthStart) monthTotal += row.credits;
    if (row.created_at < windowStart) continue;
    const day = byDay.get(dayKey(row.created_at));
    if (day) {
      day.credits += row.credits;
      day.jobs += 1;
    }
    const model = byModel.get(row.model_id) ?? { modelId: row.model_id, credits: 0, jobs: 0 };
    model.credits += row.credits;
    model.jobs += 1;
    byModel.set(row.model_id, model);
  }
  return {
    days: [...byDay.values()].map((d) => ({ ...d, credits: round(d.credits) })),
    models: [...byModel.values()]
      .map((m) => ({ ...m, credits: round(m.credits) }))
      .sort((a, b) => b.credits - a.credits || b.jobs - a.jobs),
    monthTotal: round(monthTotal),
    caps,
    uncosted,
  };
}
