import { describe, expect, it } from 'vitest';
import { tally, withEntries, withMember } from './collections.ts';

describe('copy-on-write collections', () => {
  it('withEntries sets and removes without touching the original', () => {
    const base = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const next = withEntries(base, [['c', 3]], ['a']);
    expect([...next]).toEqual([
      ['b', 2],
      ['c', 3],
    ]);
    expect(base.size).toBe(2);
    expect(next).not.toBe(base);
  });

  it('withMember adds and removes', () => {
    const base = new Set([1]);
    expect([...withMember(base, 2, true)]).toEqual([1, 2]);
    expect([...withMember(base, 1, false)]).toEqual([]);
    expect([...base]).toEqual([1]);
  });

  it('tally counts in first-seen order', () => {
    expect(tally(['x', 'y', 'x'])).toEqual([
      ['x', 2],
      ['y', 1],
    ]);
  });
});
