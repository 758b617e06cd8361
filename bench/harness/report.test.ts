// Rows compute their ratio from both sides; the table shows every column, missing values and notes.
import { describe, expect, it } from 'vitest';
import { formatNumber, formatTable, row } from './report.ts';

describe('row', () => {
  it('computes value / baseline, or null when a side is missing or zero', () => {
    const base = { scenario: 's', figure: 'f', unit: 'ms', baselineName: 'raw', goal: '', met: null };
    expect(row({ ...base, value: 3, baseline: 2 }).ratio).toBe(1.5);
    expect(row({ ...base, value: null, baseline: 2 }).ratio).toBeNull();
    expect(row({ ...base, value: 3, baseline: 0 }).ratio).toBeNull();
    expect(row({ ...base, value: 3, baseline: 2, ratio: 0.5 }).ratio).toBe(0.5);
  });
});

describe('formatNumber', () => {
  it('keeps about three significant digits', () => {
    expect(formatNumber(1234.5)).toBe('1,235');
    expect(formatNumber(123.4)).toBe('123');
    expect(formatNumber(12.34)).toBe('12.3');
    expect(formatNumber(1.234)).toBe('1.23');
    expect(formatNumber(0.1234)).toBe('0.123');
    expect(formatNumber(0.001234)).toBe('0.0012');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(NaN)).toBe('—');
  });
});

describe('formatTable', () => {
  it('prints one aligned line per row with goal, met and numbered notes', () => {
    const table = formatTable([
      row({
        scenario: '3 library',
        figure: 'page',
        unit: 'ms',
        value: 2,
        baseline: 1.6,
        baselineName: 'raw SQL',
        goal: '≤ 1.3×',
        met: true,
      }),
      row({
        scenario: '6 renderer',
        figure: 'first grid',
        unit: 'ms',
        value: null,
        baseline: null,
        baselineName: '',
        goal: '≤ 800 ms',
        met: null,
        note: 'not measurable yet',
      }),
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^\| scenario +\| figure +\| Atelier +\| baseline +\| ratio +\| goal +\| met\? \|$/);
    expect(lines[2]).toContain('| 2.00 ms');
    expect(lines[2]).toContain('1.60 ms (raw SQL)');
    expect(lines[2]).toContain('| 1.25 ');
    expect(lines[2]).toContain('| yes  |');
    expect(lines[3]).toContain('first grid [1]');
    expect(lines[3]).toContain('| —    |');
    expect(lines.at(-1)).toBe('[1] not measurable yet');
    // Every table line has the same width.
    expect(new Set(lines.slice(0, 4).map((l) => l.length)).size).toBe(1);
  });
});

describe('formatTable notes', () => {
  it('gives rows sharing a note one number and prints the note once', () => {
    const noted = (figure: string, note: string) =>
      row({
        scenario: '1 polling',
        figure,
        unit: '',
        value: 1,
        baseline: 2,
        baselineName: 'naive',
        goal: '',
        met: null,
        note,
      });
    const table = formatTable([noted('N=1', 'floor'), noted('N=10', 'floor'), noted('N=100', 'other')]);
    expect(table).toContain('N=1 [1]');
    expect(table).toContain('N=10 [1]');
    expect(table).toContain('N=100 [2]');
    expect(table.split('\n').filter((l) => l.startsWith('['))).toEqual(['[1] floor', '[2] other']);
  });
});
