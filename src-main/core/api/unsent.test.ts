// The one "was it sent" policy: refused/DNS/unreachable and DNS/connect/TLS timeouts never reached the server.
import { describe, expect, it } from 'vitest';
import { failedUnsent, neverSent } from './unsent.ts';

describe('failedUnsent', () => {
  it('counts failures before any byte was written as unsent', () => {
    for (const networkCode of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])
      expect(failedUnsent({ networkCode })).toBe(true);
    for (const timeoutPhase of ['lookup', 'connect', 'secureConnect'])
      expect(failedUnsent({ timeoutPhase })).toBe(true);
  });

  it('counts failures after the request may have left as possibly sent', () => {
    for (const networkCode of ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED'])
      expect(failedUnsent({ networkCode })).toBe(false);
    for (const timeoutPhase of ['send', 'response', 'request', ''])
      expect(failedUnsent({ timeoutPhase, networkCode: 'ECONNREFUSED' })).toBe(false);
  });
});

describe('neverSent', () => {
  it('reads only an explicit mark on the error', () => {
    expect(neverSent({ unsent: true })).toBe(true);
    expect(neverSent({ unsent: 'yes' })).toBe(false);
    expect(neverSent({ networkCode: 'ECONNREFUSED' })).toBe(false);
    expect(neverSent(null)).toBe(false);
  });
});
