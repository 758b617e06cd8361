// The Library grid's date sections, the one rule: which section an asset's creation time falls in, in
// the local time zone, seen from `now`. Newest first: "Today", "Yesterday", "This week" (Monday on),
// then the months of this year and the last ("November 2026"), then whole years ("2023"), then
// "Earlier" (before 1970). Each section is a span of time, so a list in date order is a run of whole
// sections; the core counts how many of a view's assets each span holds (`assets:sections`).

export interface DateSection {
  /** Its first instant (ms since the epoch): it holds times from here to the next newer section's start. */
  start: number;
  label: string;
}

/** The start of the oldest section ("Earlier"): before any time a library holds. */
export const EARLIEST = Number.MIN_SAFE_INTEGER;
/** Whole years are listed back to this one; anything older is "Earlier". */
const FIRST_YEAR = 1970;

// By index, not through Intl: the label follows the local calendar the starts are computed in.
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Local midnight of the day `days` after the day of `now` (negative: before). */
const dayStart = (now: Date, days = 0): number =>
  new Date(now.getFullYear(), now.getMonth(), now.getDate() + days).getTime();

/**
 * The sections seen from `now`, newest first, each start strictly earlier than the one before (a
 * section that would be empty by definition, such as "This week" on a Monday, is left out).
 */
export function dateSections(now: Date): DateSection[] {
  const sections: DateSection[] = [];
  const add = (start: number, label: string) => {
    const newer = sections.at(-1);
    if (!newer || start < newer.start) sections.push({ start, label });
  };
  add(dayStart(now), 'Today');
  add(dayStart(now, -1), 'Yesterday');
  // Monday is the week's first day (ISO 8601): getDay() is 0 on Sunday.
  add(dayStart(now, -((now.getDay() + 6) % 7)), 'This week');
  const year = now.getFullYear();
  for (let month = now.getMonth(); month >= 0; month -= 1) {
    add(new Date(year, month, 1).getTime(), `${MONTHS[month]} ${year}`);
  }
  for (let month = 11; month >= 0; month -= 1) {
    add(new Date(year - 1, month, 1).getTime(), `${MONTHS[month]} ${year - 1}`);
  }
  for (let y = year - 2; y >= FIRST_YEAR; y -= 1) add(new Date(y, 0, 1).getTime(), String(y));
  add(EARLIEST, 'Earlier');
  return sections;
}

/** The index of the section holding time `ms` (the first whose start is at or before it). */
export function sectionOf(sections: readonly DateSection[], ms: number): number {
  let lo = 0;
  let hi = sections.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sections[mid] as DateSection).start <= ms) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** How long from `now` until the sections change (the next local midnight). */
export function msUntilSectionsChange(now: Date): number {
  return Math.max(1000, dayStart(now, 1) - now.getTime());
}

/** A view's sections that hold anything, in the list's order, with their counts. */
export interface ShownSection {
  label: string;
  count: number;
  /** The index in the list of its first item. */
  first: number;
}

/**
 * The sections of a view from the core's counts (one per `sections` entry, newest first), in the
 * list's order (`oldest`: reversed), the empty ones left out.
 */
export function shownSections(
  sections: readonly DateSection[],
  counts: readonly number[],
  order: 'newest' | 'oldest',
): ShownSection[] {
  const indexes = sections.map((_, i) => i);
  if (order === 'oldest') indexes.reverse();
  const shown: ShownSection[] = [];
  let first = 0;
  for (const i of indexes) {
    const count = counts[i] ?? 0;
    if (count <= 0) continue;
    shown.push({ label: (sections[i] as DateSection).label, count, first });
    first += count;
  }
  return shown;
}
