// The budget's days and months are the user's own: local midnight to local midnight, in the time
// zone of the machine Atelier runs on (a 23- or 25-hour day at a daylight-saving change included).

/** Local midnight at the start of the day holding `ms`. */
export function startOfDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** Local midnight at the start of the first day of the month holding `ms`. */
export function startOfMonth(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), 1).getTime();
}

const two = (n: number): string => String(n).padStart(2, '0');

/** The local calendar day holding `ms`, as YYYY-MM-DD. */
export function dayKey(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The last `count` local days up to the one holding `now`, oldest first: each day's key and its start. */
export function lastDays(now: number, count: number): { date: string; start: number }[] {
  const d = new Date(now);
  return Array.from({ length: count }, (_, i) => {
    const start = new Date(d.getFullYear(), d.getMonth(), d.getDate() - (count - 1 - i)).getTime();
    return { date: dayKey(start), start };
  });
}
