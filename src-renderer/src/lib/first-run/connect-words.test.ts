import { describe, expect, it } from 'vitest';
import { cleanKey, connectProblem } from './connect-words.ts';

describe('the first-run connection', () => {
  it('cleans a pasted key of spaces and a Bearer prefix, and says so', () => {
    expect(cleanKey('abc123')).toEqual({ key: 'abc123', changed: null });
    expect(cleanKey('  abc123\n')).toEqual({ key: 'abc123', changed: 'Removed spaces from the pasted key.' });
    expect(cleanKey('Bearer abc123')).toEqual({
      key: 'abc123',
      changed: 'Removed the “Bearer ” prefix from the pasted key.',
    });
    expect(cleanKey('bearer  ab c1 23 ').key).toBe('abc123');
  });

  it('puts an unreachable address on the address, a refused key on the key', () => {
    const url = 'https://api.example.com/v1';
    expect(connectProblem({ code: 'network', message: 'x' }, url)).toMatchObject({ field: 'baseUrl' });
    expect(connectProblem({ code: 'not_found', message: 'x', field: 'baseUrl' }, url)).toMatchObject({
      field: 'baseUrl',
    });
    expect(connectProblem({ code: 'auth', message: 'x', field: 'key' }, url)).toMatchObject({ field: 'key' });
    const other = connectProblem(
      { code: 'invalid_argument', field: 'baseUrl', message: 'Set the service address in Settings first.' },
      url,
    );
    expect(other).toEqual({ field: 'baseUrl', message: 'Set the service address first.' });
  });
});
