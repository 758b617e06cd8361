import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dateSections, EARLIEST, msUntilSectionsChange, sectionOf, shownSections } from './date-sections.ts';

// Node follows TZ set at run time: each test names the zone its local times are in.
const inZone = (zone: string) => vi.stubEnv('TZ', zone);
beforeEach(() => inZone('Europe/Berlin'));
afterEach(() => vi.unstubAllEnvs());

/** The label of the section a local time falls in, seen from a local `now` (both local wall times). */
const labelAt = (now: Date, at: Date): string => {
  const sections = dateSections(now);
  return sections[sectionOf(sections, at.getTime())]!.label;
};

describe('dateSections', () => {
  it('names today, yesterday, this week, the months of this year and the last, then years', () => {
    // Friday 27 November 2026, in the afternoon.
    const now = new Date(2026, 10, 27, 15, 30);
    const labels = dateSections(now).map((s) => s.label);
    expect(labels.slice(0, 5)).toEqual(['Today', 'Yesterday', 'This week', 'November 2026', 'October 2026']);
    expect(labels).toContain('January 2026');
    expect(labels).toContain('December 2025');
    expect(labels).toContain('January 2025');
    expect(labels).not.toContain('December 2024');
    expect(labels.slice(labels.indexOf('January 2025') + 1, labels.indexOf('January 2025') + 3)).toEqual([
      '2024',
      '2023',
    ]);
    expect(labels.at(-2)).toBe('1970');
    expect(labels.at(-1)).toBe('Earlier');
    expect(dateSections(now).at(-1)!.start).toBe(EARLIEST);
  });

  it('puts each time in its section by the local calendar', () => {
    const now = new Date(2026, 10, 27, 15, 30);
    expect(labelAt(now, new Date(2026, 10, 27, 0, 0))).toBe('Today');
    expect(labelAt(now, new Date(2026, 10, 26, 23, 59, 59, 999))).toBe('Yesterday');
    expect(labelAt(now, new Date(2026, 10, 26, 0, 0))).toBe('Yesterday');
    expect(labelAt(now, new Date(2026, 10, 25, 23, 0))).toBe('This week');
    expect(labelAt(now, new Date(2026, 10, 23, 0, 0))).toBe('This week'); // Monday
    expect(labelAt(now, new Date(2026, 10, 22, 23, 59))).toBe('November 2026'); // Sunday before
    expect(labelAt(now, new Date(2026, 10, 1, 0, 0))).toBe('November 2026');
    expect(labelAt(now, new Date(2026, 9, 31, 23, 59, 59, 999))).toBe('October 2026');
    expect(labelAt(now, new Date(2026, 0, 1, 0, 0))).toBe('January 2026');
    expect(labelAt(now, new Date(2025, 11, 31, 23, 59))).toBe('December 2025');
    expect(labelAt(now, new Date(2024, 11, 31, 23, 59))).toBe('2024');
    expect(labelAt(now, new Date(2024, 0, 1, 0, 0))).toBe('2024');
    expect(labelAt(now, new Date(2023, 11, 31, 23, 59))).toBe('2023');
    expect(labelAt(now, new Date(1969, 5, 1))).toBe('Earlier');
    // A time ahead of the clock (another machine's) is today's.
    expect(labelAt(now, new Date(2026, 10, 29))).toBe('Today');
  });

  it('follows the local time zone: one instant is in different days in Tokyo and in Los Angeles', () => {
    const instantNow = Date.UTC(2026, 10, 27, 12, 0); // 21:00 in Tokyo, 04:00 in Los Angeles
    const instant = Date.UTC(2026, 10, 26, 20, 0); // 05:00 on the 27th in Tokyo, 12:00 on the 26th in LA
    inZone('Asia/Tokyo');
    let sections = dateSections(new Date(instantNow));
    expect(sections[sectionOf(sections, instant)]!.label).toBe('Today');
    inZone('America/Los_Angeles');
    sections = dateSections(new Date(instantNow));
    expect(sections[sectionOf(sections, instant)]!.label).toBe('Yesterday');
    // The first of the month at local midnight opens the month in the zone itself.
    const monthStart = sections.find((s) => s.label === 'November 2026')!.start;
    expect(new Date(monthStart).toISOString()).toBe('2026-11-01T07:00:00.000Z');
  });

  it('moves "Today" at local midnight (an injected clock), across a month and a year', () => {
    const evening = new Date(2026, 11, 31, 23, 59, 59, 999);
    const midnight = new Date(2027, 0, 1, 0, 0, 0, 0);
    const photo = new Date(2026, 11, 31, 20, 0).getTime();
    expect(labelAt(evening, new Date(photo))).toBe('Today');
    expect(labelAt(midnight, new Date(photo))).toBe('Yesterday');
    expect(labelAt(midnight, new Date(2026, 11, 27, 12, 0))).toBe('December 2026'); // a Sunday: last week
    // The new year's calendar: last year's months by name, the year before whole.
    expect(labelAt(midnight, new Date(2026, 0, 5, 12, 0))).toBe('January 2026');
    expect(labelAt(midnight, new Date(2025, 11, 31, 12, 0))).toBe('2025');
    expect(labelAt(evening, new Date(2025, 11, 31, 12, 0))).toBe('December 2025');
    expect(msUntilSectionsChange(evening)).toBe(1000); // at least a second, never a busy loop
    expect(msUntilSectionsChange(new Date(2026, 11, 31, 23, 0))).toBe(3_600_000);
  });

  it('leaves out sections empty by definition and keeps the starts strictly decreasing', () => {
    // Monday 2 November 2026: this week is today; November's first day is yesterday.
    const monday = new Date(2026, 10, 2, 9, 0);
    const sections = dateSections(monday);
    expect(sections.slice(0, 3).map((s) => s.label)).toEqual(['Today', 'Yesterday', 'October 2026']);
    for (let i = 1; i < sections.length; i += 1) expect(sections[i]!.start).toBeLessThan(sections[i - 1]!.start);
    // Across a daylight-saving change (Berlin, 25 October 2026): still whole local days.
    const afterChange = new Date(2026, 9, 26, 12, 0);
    expect(labelAt(afterChange, new Date(2026, 9, 25, 0, 30))).toBe('Yesterday');
    expect(labelAt(afterChange, new Date(2026, 9, 24, 23, 30))).toBe('October 2026');
  });
});

describe('shownSections', () => {
  const sections = dateSections(new Date(2026, 10, 27, 15, 30));
  const counts = sections.map((s) =>
    s.label === 'Today' ? 3 : s.label === 'October 2026' ? 5 : s.label === '2024' ? 2 : 0,
  );

  it('keeps the sections that hold anything, with each one’s first index, newest first', () => {
    expect(shownSections(sections, counts, 'newest')).toEqual([
      { label: 'Today', count: 3, first: 0 },
      { label: 'October 2026', count: 5, first: 3 },
      { label: '2024', count: 2, first: 8 },
    ]);
  });

  it('turns them round for the oldest first', () => {
    expect(shownSections(sections, counts, 'oldest')).toEqual([
      { label: '2024', count: 2, first: 0 },
      { label: 'October 2026', count: 5, first: 2 },
      { label: 'Today', count: 3, first: 7 },
    ]);
  });
});
