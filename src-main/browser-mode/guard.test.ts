import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cookieToken, hostAllowed, originAllowed, tokenCookie, tokenMatches, type Guard } from './guard.ts';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const a: Guard = { port: 5001, token: 'a'.repeat(64) };
const b: Guard = { port: 5002, token: 'b'.repeat(64) };

describe('browser-mode guard', () => {
  it('names the session cookie per port, so two instances keep their own', () => {
    const both = [tokenCookie(a), tokenCookie(b)].map((c) => c.split(';')[0]).join('; ');
    expect(cookieToken(request({ cookie: both }), a)).toBe(a.token);
    expect(cookieToken(request({ cookie: both }), b)).toBe(b.token);
    expect(tokenCookie(a)).toMatch(/; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(cookieToken(request({ cookie: `atelier_token_5001x=${a.token}` }), a)).toBeUndefined();
  });

  it('accepts only our own host and origin', () => {
    expect(hostAllowed(request({ host: '127.0.0.1:5001' }), a)).toBe(true);
    expect(hostAllowed(request({ host: 'localhost:5001' }), a)).toBe(true);
    for (const host of ['127.0.0.1:5002', 'evil.example:5001', '127.0.0.1', '']) {
      expect(hostAllowed(request({ host }), a), host).toBe(false);
    }
    expect(originAllowed(request({ origin: 'http://127.0.0.1:5001' }), a)).toBe(true);
    for (const origin of ['http://127.0.0.1:5002', 'https://127.0.0.1:5001', 'null', 'http://evil.example']) {
      expect(originAllowed(request({ origin }), a), origin).toBe(false);
    }
    expect(originAllowed(request({}), a)).toBe(false);
  });

  it('compares tokens exactly', () => {
    expect(tokenMatches(a.token, a)).toBe(true);
    expect(tokenMatches(b.token, a)).toBe(false);
    expect(tokenMatches(a.token.slice(1), a)).toBe(false);
    expect(tokenMatches(undefined, a)).toBe(false);
  });
});
