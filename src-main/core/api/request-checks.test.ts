// Local checks before sending: list options, job ranges.
import { describe, expect, it } from 'vitest';
import { infoOf } from './test-support/local-checks.ts';
import { checkImageFilter, checkJobRange, checkPageSize } from './request-checks.ts';

describe('list options', () => {
  it('accept the spec ranges and refuse the rest', () => {
    expect(checkPageSize(undefined)).toBeUndefined();
    expect(checkPageSize(100)).toBe(100);
    for (const bad of [0, 101, 2.5, '5']) expect(infoOf(() => checkPageSize(bad))).toMatchObject({ field: 'pageSize' });
    expect(checkImageFilter('auxiliaryType')).toBe('auxiliaryType');
    expect(infoOf(() => checkImageFilter('outputs'))).toMatchObject({ field: 'imageType' });
  });
});

describe('checkJobRange', () => {
  const now = Date.parse('2025-06-10T00:00:00Z');

  it('passes RFC 3339 strings through and turns Dates into them', () => {
    expect(checkJobRange({ start: '2025-06-09T00:00:00+02:00', end: new Date('2025-06-09T12:00:00Z') }, now)).toEqual({
      start: '2025-06-09T00:00:00+02:00',
      end: '2025-06-09T12:00:00.000Z',
    });
    expect(checkJobRange({}, now)).toEqual({});
  });

  it('refuses a range over 7 days (start) and an end before start (end)', () => {
    expect(
      infoOf(() => checkJobRange({ start: '2025-06-01T00:00:00Z', end: '2025-06-08T00:00:01Z' }, now)),
    ).toMatchObject({ code: 'invalid_argument', field: 'start' });
    expect(
      infoOf(() => checkJobRange({ start: '2025-06-02T00:00:00Z', end: '2025-06-01T00:00:00Z' }, now)),
    ).toMatchObject({ code: 'invalid_argument', field: 'end' });
    // Only start: the range runs until now.
    expect(infoOf(() => checkJobRange({ start: '2025-06-02T23:59:59Z' }, now))).toMatchObject({ field: 'start' });
    expect(checkJobRange({ start: '2025-06-03T00:00:00Z' }, now)).toEqual({ start: '2025-06-03T00:00:00Z' });
  });

  it('refuses times that are not RFC 3339', () => {
    for (const bad of ['yesterday', '2025-06-09', '2025-06-09T00:00:00', new Date(NaN)]) {
      expect(infoOf(() => checkJobRange({ end: bad }, now))).toMatchObject({ field: 'end' });
    }
  });
});
