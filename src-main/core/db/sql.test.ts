// sqlInteger: the one way a value reaches SQL text, so it takes whole numbers only.
import { describe, expect, it } from 'vitest';
import { sql, sqlInteger } from './sql.ts';

describe('sqlInteger', () => {
  it('writes a whole number into the text, with no parameter', () => {
    const query = sql`SELECT id FROM t WHERE a = ${'x'} LIMIT ${sqlInteger(6)}`;
    expect(query.text).toBe('SELECT id FROM t WHERE a = ? LIMIT 6');
    expect(query.params).toEqual(['x']);
  });

  it('refuses anything else', () => {
    for (const value of [-1, 1.5, Number.NaN, Infinity, 2 ** 60]) expect(() => sqlInteger(value)).toThrow(RangeError);
  });
});
