// Redaction of secrets in text, errors and structured fields.
import { describe, expect, it } from 'vitest';
import { redact, redactValue, REDACTED } from './redact.ts';

const KEY = 'sk-SENTINEL-0123456789abcdef';

describe('redact', () => {
  it('removes every occurrence of a known secret', () => {
    const out = redact(`key ${KEY} and again ${KEY}.`, [KEY]);
    expect(out).toBe(`key ${REDACTED} and again ${REDACTED}.`);
  });

  it('removes percent-encoded and JSON-escaped forms of a secret', () => {
    const odd = 'a/b+c"d e';
    const text = `url ?q=${encodeURIComponent(odd)} json ${JSON.stringify({ k: odd })}`;
    const out = redact(text, [odd]);
    expect(out).not.toContain(encodeURIComponent(odd));
    expect(out).not.toContain(JSON.stringify(odd).slice(1, -1));
  });

  it('removes bearer tokens it was not told about', () => {
    expect(redact('sent Bearer abc.DEF-123_= to the server', [])).toBe(`sent Bearer ${REDACTED} to the server`);
    expect(redact('bearer xyz', [])).toBe(`bearer ${REDACTED}`);
  });

  it('removes Authorization header values in header, JSON and key=value form', () => {
    expect(redact('Authorization: Basic dXNlcjpwYXNz', [])).toBe(`Authorization: ${REDACTED}`);
    expect(redact('{"authorization":"Token 123456","x":1}', [])).toBe(`{"authorization":"${REDACTED}","x":1}`);
    expect(redact('proxy-authorization=abc', [])).toBe(`proxy-authorization=${REDACTED}`);
  });

  it('removes credentials in URLs and secret query parameters', () => {
    expect(redact('http://user:pw@example.com/x', [])).toBe(`http://${REDACTED}@example.com/x`);
    expect(redact('GET /a?api_key=zzz&b=1', [])).toBe(`GET /a?api_key=${REDACTED}&b=1`);
  });

  it('removes a secret quoted cut short, down to its first 12 characters', () => {
    expect(redact(`you gave "${KEY.slice(0, 20)}…"`, [KEY])).toBe(`you gave "${REDACTED}…"`);
    expect(redact(`start ${KEY.slice(0, 12)}`, [KEY])).toBe(`start ${REDACTED}`);
    expect(redact(`start ${KEY.slice(0, 11)}`, [KEY])).toBe(`start ${KEY.slice(0, 11)}`);
  });

  it('leaves ordinary text and too-short secrets alone', () => {
    expect(redact('GET /jobs?pageToken=abc 200 12ms', ['ab'])).toBe('GET /jobs?pageToken=abc 200 12ms');
  });

  it('replaces a longer secret whole when it contains a shorter one', () => {
    expect(redact('x sk-long-secret y', ['long', 'sk-long-secret'])).toBe(`x ${REDACTED} y`);
  });
});

describe('redactValue', () => {
  it('redacts nested strings, secret-named fields and errors', () => {
    const error = new Error(`failed with ${KEY}`);
    const out = redactValue(
      { headers: { Authorization: 'anything', 'x-api-key': 'k' }, note: `k=${KEY}`, list: [KEY], error },
      [KEY],
    );
    const text = JSON.stringify(out);
    expect(text).not.toContain(KEY);
    expect(out).toMatchObject({ headers: { Authorization: REDACTED, 'x-api-key': REDACTED } });
    expect((out as { error: { message: string; stack: string } }).error.message).toBe(`failed with ${REDACTED}`);
    expect((out as { error: { stack: string } }).error.stack).not.toContain(KEY);
  });

  it('follows error causes and AppError-like info', () => {
    const cause = new Error(`inner ${KEY}`);
    const outer = Object.assign(new Error('outer', { cause }), { info: { message: `info ${KEY}` } });
    expect(JSON.stringify(redactValue(outer, [KEY]))).not.toContain(KEY);
  });

  it('survives cycles, binary data and exotic values', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a['self'] = a;
    const out = redactValue({ a, bytes: new Uint8Array(7), big: 10n, fn: () => 1 }, []);
    expect(out).toMatchObject({ a: { name: 'a', self: '[circular]' }, bytes: '[7 bytes]', big: '10' });
  });

  it('keeps shared (non-cyclic) references', () => {
    const shared = { v: 1 };
    expect(redactValue({ x: shared, y: shared }, [])).toEqual({ x: { v: 1 }, y: { v: 1 } });
  });
});
