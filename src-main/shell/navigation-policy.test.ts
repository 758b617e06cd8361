import { describe, expect, it } from 'vitest';
import { isAppUrl } from './app-url.ts';
import { navigationDecision, windowOpenDecision } from './navigation-policy.ts';

describe('navigation policy', () => {
  it('lets the app move between its own pages', () => {
    expect(navigationDecision('atelier://app/index.html#/library', isAppUrl)).toBe('allow');
  });

  it('sends https links to the system browser and keeps the window on the app', () => {
    expect(navigationDecision('https://docs.example.com/guide', isAppUrl)).toBe('open-externally');
    expect(windowOpenDecision('https://docs.example.com/guide')).toBe('open-externally');
  });

  it('drops every other scheme instead of loading or opening it', () => {
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,hi',
      'smb://host/share',
      'https://user:pw@example.com/',
      'atelier://evil/',
    ]) {
      expect(navigationDecision(url, isAppUrl), url).toBe('deny');
    }
    expect(windowOpenDecision('atelier://app/index.html')).toBe('deny');
    expect(windowOpenDecision('file:///C:/Windows/system32/calc.exe')).toBe('deny');
  });
});
