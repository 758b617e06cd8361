import { describe, expect, it } from 'vitest';
import { isAppUrl } from './app-url.ts';
import { LOAD_PROBLEM_URL, loadProblemPage } from './load-problem-page.ts';
import { navigationDecision } from './navigation-policy.ts';

describe('load problem page', () => {
  it('offers a Reload link to the app page and names the log file, escaped', () => {
    const html = loadProblemPage({ appName: 'Atelier', logFile: '/home/a<b>/logs/atelier.log' });
    const reload = /href="([^"]+)"[^>]*data-testid="load-problem-reload"/.exec(html)?.[1];
    expect(reload).toBe('atelier://app/index.html');
    expect(navigationDecision(reload!, isAppUrl)).toBe('allow');
    expect(html).toContain('/home/a&lt;b&gt;/logs/atelier.log');
    expect(html).not.toContain('<b>');
    expect(html).not.toMatch(/<script|on\w+=/i);
  });

  it('lives on the app origin, so the window may show it', () => {
    expect(isAppUrl(LOAD_PROBLEM_URL)).toBe(true);
  });
});
