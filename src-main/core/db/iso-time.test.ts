// isoTime must write exactly what Date#toISOString writes, for every input.
import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.ts';

const same = (ms: number) => expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());

describe('isoTime', () => {
  it('matches toISOString at the edges: epoch, leap days, month and year ends, the last ms before 10000', () => {
    for (const text of [
      '1970-01-01T00:00:00.000Z',
      '1972-02-29T23:59:59.999Z',
      '1999-12-31T23:59:59.999Z',
      '2000-02-29T12:00:00.000Z',
      '2000-03-01T00:00:00.000Z',
      '2024-02-29T00:00:00.001Z',
      '2100-02-28T23:59:59.999Z',
      '2100-03-01T00:00:00.000Z',
      '2400-02-29T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      expect(isoTime(Date.parse(text))).toBe(text);
    }
    same(0);
  });

  it('matches toISOString for 200,000 random times in 1970–9999', () => {
    let state = 12345;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    for (let i = 0; i < 200_000; i += 1) {
      const ms = Math.floor(next() * 253_402_300_800_000 + next() * 1000);
      same(Math.min(ms, 253_402_300_799_999));
    }
  });

  it('leaves what it does not handle to Date: before 1970, year 10000 on, fractions', () => {
    for (const ms of [-1, -86_400_001, -62_198_755_200_000, 253_402_300_800_000, 8.64e15, 1.5, 1_700_000_000_000.7])
      same(ms);
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
