import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../secrets/fingerprint.ts';
import { accountDatabasePath, accountId } from './account-path.ts';

describe('accountDatabasePath', () => {
  const base = 'https://api.example.com/v1';
  const fpA = keyFingerprint('key-A-secret');
  const fpB = keyFingerprint('key-B-secret');

  it('puts each account in its own folder under dataDir/accounts', () => {
    const path = accountDatabasePath('/data', { baseUrl: base, keyFingerprint: fpA });
    expect(path).toMatch(/^\/data\/accounts\/[0-9a-f]{16}\/atelier\.db$/);
    expect(accountDatabasePath('/data', 'demo')).toBe(join('/data', 'accounts', 'demo', 'atelier.db'));
  });

  it('separates two keys on one service, and one key on two services', () => {
    const a = accountId({ baseUrl: base, keyFingerprint: fpA });
    expect(accountId({ baseUrl: base, keyFingerprint: fpB })).not.toBe(a);
    expect(accountId({ baseUrl: 'https://other.example.com/v1', keyFingerprint: fpA })).not.toBe(a);
    expect(a).not.toBe('demo');
  });

  it('treats spellings of the same address alike', () => {
    const a = accountId({ baseUrl: base, keyFingerprint: fpA });
    expect(accountId({ baseUrl: 'HTTPS://API.Example.com/v1/', keyFingerprint: fpA })).toBe(a);
    expect(accountId({ baseUrl: ` ${base} `, keyFingerprint: fpA })).toBe(a);
  });

  it('never carries the key or its fingerprint in the path', () => {
    const path = accountDatabasePath('/data', { baseUrl: base, keyFingerprint: fpA });
    expect(path).not.toContain(fpA);
    expect(path).not.toContain('key-A-secret');
    expect(() => accountDatabasePath('/data', { baseUrl: base, keyFingerprint: 'sk-live-NOT-A-FINGERPRINT' })).toThrow(
      /fingerprint/,
    );
  });
});
