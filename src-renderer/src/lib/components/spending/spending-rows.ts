// The Spending view's figures as rows for its charts and tables: days in the user's words
// ("Nov 3"), models by name (state/names.svelte.ts), and one sentence of each chart for its
// accessible name.
import type { SpendingInfo } from '@contract/ipc/budget.ts';
import { creditsText } from '../../create/cost-estimate.ts';

export interface ChartRow {
  label: string;
  credits: number;
  jobs: number;
}

const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** "2026-11-03" → "Nov 3" (a local calendar day: read at noon, so no time zone moves it). */
export function dayLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return dayFormat.format(new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1, 12));
}

export function dayRows(spending: SpendingInfo): ChartRow[] {
  return spending.days.map((d) => ({ label: dayLabel(d.date), credits: d.credits, jobs: d.jobs }));
}

export function modelRows(spending: SpendingInfo, nameOf: (id: string | null) => string): ChartRow[] {
  return spending.models.map((m) => ({ label: nameOf(m.modelId), credits: m.credits, jobs: m.jobs }));
}

/** "42 credits in the last 30 days; the most on Nov 3 (12 credits)." */
export function rowsSummary(rows: ChartRow[], span: string, most: 'on' | 'with'): string {
  const total = rows.reduce((sum, r) => sum + r.credits, 0);
  const top = rows.reduce<ChartRow | null>((best, r) => (r.credits > (best?.credits ?? 0) ? r : best), null);
  const peak = top ? `; the most ${most} ${top.label} (${creditsText(top.credits)})` : '';
  return `${creditsText(total)} ${span}${peak}.`;
}
