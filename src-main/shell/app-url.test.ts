import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAppUrl, rendererFileFor } from './app-url.ts';

describe('isAppUrl', () => {
  it('accepts only atelier://app pages', () => {
    expect(isAppUrl('atelier://app/index.html')).toBe(true);
    expect(isAppUrl('atelier://app/')).toBe(true);
    for (const url of [
      'atelier://other/',
      'atelier-media://library/a.png',
      'https://app/',
      'file:///app/index.html',
      'atelier://user:pw@app/',
      'not a url',
      '',
    ]) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });
});

describe('rendererFileFor', () => {
  const dir = join('/opt', 'atelier', 'renderer');

  it('maps the root to index.html and assets to their files', () => {
    expect(rendererFileFor(dir, 'atelier://app/')).toBe(join(dir, 'index.html'));
    expect(rendererFileFor(dir, 'atelier://app/assets/index-abc.js')).toBe(join(dir, 'assets', 'index-abc.js'));
  });

  it('never leaves the renderer folder (a dotted path lands inside it or nowhere)', () => {
    for (const url of [
      'atelier://app/../../etc/passwd',
      'atelier://app/%2e%2e/%2e%2e/etc/passwd',
      'atelier://app/..%2f..%2fetc%2fpasswd',
      'atelier://app/assets/%00.js',
      'atelier://app/%E0%A4%A',
      'atelier://elsewhere/index.html',
    ]) {
      const file = rendererFileFor(dir, url);
      expect(file === null || file.startsWith(dir + '/'), url).toBe(true);
    }
    expect(rendererFileFor(dir, 'atelier://app/%E0%A4%A')).toBeNull();
    expect(rendererFileFor(dir, 'atelier://elsewhere/index.html')).toBeNull();
  });
});
