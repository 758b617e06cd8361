// The Jobs history's date range: local calendar days, both inclusive, at most seven of them (the
// service refuses longer ranges). A bad range is refused here, before any call.
import { DAY_MS, localDayStart, nextLocalDay } from './format.ts';

export const HISTORY_MAX_DAYS = 7;

export type HistoryRange = { ok: true; start: string; end: string; days: number } | { ok: false; problem: string };

/** Calendar days from `from` to `to`, both included (DST-proof: counts dates, not hours). */
function inclusiveDays(from: number, to: number): number {
  const a = new Date(from);
  const b = new Date(to);
  const utc = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
  return Math.round((utc(b) - utc(a)) / DAY_MS) + 1;
}

export function historyRange(fromDay: string, toDay: string): HistoryRange {
  const from = localDayStart(fromDay);
  const to = localDayStart(toDay);
  if (from === null || to === null) return { ok: false, problem: 'Choose a start and an end date.' };
  if (to < from) return { ok: false, problem: 'The end date is before the start date.' };
  const days = inclusiveDays(from, to);
  if (days > HISTORY_MAX_DAYS) {
    return {
      ok: false,
      problem: `The service shows at most ${HISTORY_MAX_DAYS} days at a time; this range covers ${days} days. Move the start or end date closer.`,
    };
  }
  // A day that gains an hour (DST) must not push seven days past the service's limit.
  const end = Math.min(nextLocalDay(to), from + HISTORY_MAX_DAYS * DAY_MS);
  return { ok: true, start: new Date(from).toISOString(), end: new Date(end).toISOString(), days };
}

/** The picker's bounds for the other date, so the input itself offers no range over seven days. */
export function pickerBounds(
  fromDay: string,
  toDay: string,
): { toMin?: string; toMax?: string; fromMin?: string; fromMax?: string } {
  const shift = (day: string, by: number): string | undefined => {
    const start = localDayStart(day);
    if (start === null) return undefined;
    const d = new Date(start);
    const moved = new Date(d.getFullYear(), d.getMonth(), d.getDate() + by);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${moved.getFullYear()}-${pad(moved.getMonth() + 1)}-${pad(moved.getDate())}`;
  };
  const bounds: { toMin?: string; toMax?: string; fromMin?: string; fromMax?: string } = {};
  if (fromDay) {
    bounds.toMin = fromDay;
    const max = shift(fromDay, HISTORY_MAX_DAYS - 1);
    if (max) bounds.toMax = max;
  }
  if (toDay) {
    bounds.fromMax = toDay;
    const min = shift(toDay, -(HISTORY_MAX_DAYS - 1));
    if (min) bounds.fromMin = min;
  }
  return bounds;
}
