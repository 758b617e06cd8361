import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WildcardError, expandWildcards, wildcardCount } from './wildcards.ts';

describe('{a|b|c} wildcards', () => {
  it('expands one group to each alternative, in order', () => {
    expect(expandWildcards('a {red|green|blue} fox')).toEqual(['a red fox', 'a green fox', 'a blue fox']);
  });

  it('multiplies groups, the first varying slowest', () => {
    expect(expandWildcards('{a|b}-{1|2|3}')).toEqual(['a-1', 'a-2', 'a-3', 'b-1', 'b-2', 'b-3']);
    expect(wildcardCount('{a|b}-{1|2|3} {x|y}')).toBe(12);
  });

  it('expands nested groups inside an alternative', () => {
    expect(expandWildcards('{a {big|small}|c}')).toEqual(['a big', 'a small', 'c']);
    expect(wildcardCount('{a {big|small}|c} {1|2}')).toBe(6);
  });

  it('keeps empty alternatives and a text without groups as it is', () => {
    expect(expandWildcards('fox{ at night|}')).toEqual(['fox at night', 'fox']);
    expect(expandWildcards('plain | text')).toEqual(['plain | text']);
    expect(expandWildcards('{}')).toEqual(['']);
  });

  it('reads \\{ \\} \\| \\\\ as the characters themselves', () => {
    expect(expandWildcards('\\{not a group\\}')).toEqual(['{not a group}']);
    expect(expandWildcards('{a\\|b|c}')).toEqual(['a|b', 'c']);
    expect(expandWildcards('back\\\\slash {x|y}')).toEqual(['back\\slash x', 'back\\slash y']);
    expect(expandWildcards('C:\\path')).toEqual(['C:\\path']);
  });

  it('refuses an unmatched brace, saying where', () => {
    expect(() => expandWildcards('a {red|green fox')).toThrow(WildcardError);
    expect(() => expandWildcards('a {red|green fox')).toThrow('the "{" at character 3 is never closed');
    expect(() => expandWildcards('red} fox')).toThrow('the "}" at character 4 closes no "{"');
  });

  it('counts without expanding what would be too many to build', () => {
    const huge = '{a|b|c|d|e|f|g|h|i|j}'.repeat(30);
    expect(wildcardCount(huge)).toBeGreaterThan(1e15);
  });

  // A text made of literal runs and groups of literal alternatives: the count is the product of
  // the group sizes, and every expansion is distinct when the alternatives are.
  const literal = fc.stringMatching(/^[a-z ]{0,4}$/);
  const group = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,3}$/), { minLength: 1, maxLength: 4 });
  const template = fc.array(fc.tuple(literal, group), { minLength: 0, maxLength: 4 });

  it('expands to the product of the group sizes, each combination once (property)', () => {
    fc.assert(
      fc.property(template, (parts) => {
        const text = parts.map(([lit, alts]) => `${lit}<{${alts.join('|')}}>`).join('');
        const expected = parts.reduce((n, [, alts]) => n * alts.length, 1);
        const expanded = expandWildcards(text);
        expect(wildcardCount(text)).toBe(expected);
        expect(expanded).toHaveLength(expected);
        expect(new Set(expanded).size).toBe(expected);
        for (const out of expanded) expect(out).not.toMatch(/[{}|]/);
      }),
    );
  });

  it('leaves any text with every special character escaped unchanged (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = text.replace(/[\\{}|]/g, (ch) => `\\${ch}`);
        expect(expandWildcards(escaped)).toEqual([text]);
      }),
    );
  });
});
