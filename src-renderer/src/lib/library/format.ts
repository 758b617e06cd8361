// How the library and jobs views write numbers, sizes, dates and durations.

/**
 * A formatter made at its first use, not when this module loads: the first Intl formatter of a page
 * loads the locale's data (25–35 ms in Chromium), which at load time would hold up the first screen.
 */
function formatter<F>(make: () => F): () => F {
  let made: F | undefined;
  return () => (made ??= make());
}

const numberFormat = formatter(() => new Intl.NumberFormat());
const dateTimeFormat = formatter(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

export const formatCount = (n: number): string => numberFormat().format(n);

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function formatDateTime(value: string | number | null): string {
  if (value === null) return '—';
  const time = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(time) ? dateTimeFormat().format(time) : '—';
}

/** 0:07, 12:30, 1:02:03 */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export const percent = (fraction: number): string => `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)}%`;

/** A local calendar day (YYYY-MM-DD, as <input type="date"> gives it) at local midnight, as epoch ms. */
export function localDayStart(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const time = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime();
  return Number.isFinite(time) ? time : null;
}

/** The local calendar day of an epoch ms time, as YYYY-MM-DD. */
export function localDay(time: number): string {
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const DAY_MS = 24 * 3600 * 1000;

/** The day after, at local midnight (DST-safe: calendar arithmetic, not +24 h). */
export function nextLocalDay(dayStart: number): number {
  const date = new Date(dayStart);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
}

/** A running time in words: "8 s", "3 min 05 s", "1 h 02 min". */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
}

const compactFormat = formatter(
  () => new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }),
);

/** Counts in tight places: exact below 10,000, then 46.7K. */
export const formatCompact = (n: number): string => (n < 10_000 ? formatCount(n) : compactFormat().format(n));

const dayFormat = formatter(() => new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' }));

/** A local day (YYYY-MM-DD) as "3 Mar"; '' stays ''. */
export function formatDay(day: string): string {
  const start = localDayStart(day);
  return start === null ? '' : dayFormat().format(start);
}
