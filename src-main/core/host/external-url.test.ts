import { describe, expect, it } from 'vitest';
import { externalUrlProblem, isSafeExternalUrl } from './external-url.ts';

describe('external URL policy', () => {
  it('allows plain https links', () => {
    expect(isSafeExternalUrl('https://example.com/docs?a=1#b')).toBe(true);
  });

  it('refuses every other scheme, credentials, garbage and huge links', () => {
    const refused: unknown[] = [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'ms-settings:privacy',
      'atelier://app/',
      'https://user:pass@example.com/',
      'https://',
      'not a url',
      '',
      42,
      null,
      `https://example.com/${'a'.repeat(3000)}`,
    ];
    for (const value of refused) expect(isSafeExternalUrl(value), String(value).slice(0, 40)).toBe(false);
    expect(externalUrlProblem('http://example.com/')).toBe('Only https:// links are opened in your browser.');
  });
});
