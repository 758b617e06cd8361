import { describe, expect, it } from 'vitest';
import { historyRange, pickerBounds } from './history-range.ts';

describe('historyRange', () => {
  it('turns seven inclusive days into start and end times at most seven days apart', () => {
    const range = historyRange('2026-03-01', '2026-03-07');
    expect(range.ok).toBe(true);
    if (!range.ok) return;
    expect(range.days).toBe(7);
    expect(Date.parse(range.end) - Date.parse(range.start)).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);
    expect(range.start).toMatch(/Z$/);
  });

  it('refuses eight days, naming the limit', () => {
    const range = historyRange('2026-03-01', '2026-03-08');
    expect(range).toMatchObject({ ok: false });
    if (!range.ok) expect(range.problem).toMatch(/at most 7 days.*8 days/);
  });

  it('refuses an end before the start and missing dates', () => {
    expect(historyRange('2026-03-05', '2026-03-01')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/before/),
    });
    expect(historyRange('', '2026-03-01')).toMatchObject({ ok: false });
  });

  it('accepts a single day', () => {
    expect(historyRange('2026-03-05', '2026-03-05')).toMatchObject({ ok: true, days: 1 });
  });
});

describe('pickerBounds', () => {
  it('keeps the other date within seven days', () => {
    expect(pickerBounds('2026-02-25', '2026-03-02')).toEqual({
      toMin: '2026-02-25',
      toMax: '2026-03-03',
      fromMax: '2026-03-02',
      fromMin: '2026-02-24',
    });
  });
});
