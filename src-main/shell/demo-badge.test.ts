import { describe, expect, it } from 'vitest';
import { isDemo, wantsDemoAtStart, withDemoBadge } from './demo-badge.ts';
import { trayModel } from './tray-model.ts';

describe('demo badge', () => {
  it('marks titles only while the demo account is open', () => {
    expect(withDemoBadge('Atelier', isDemo({ mode: 'demo' }))).toBe('Atelier — Demo');
    expect(withDemoBadge('Image ready', isDemo({ mode: 'service' }))).toBe('Image ready');
    expect(isDemo(null)).toBe(false);
  });

  it('shows in the tray tooltip and its status line', () => {
    const model = trayModel('Atelier', { queued: 1, running: 2 }, false, true);
    expect(model.tooltip).toBe('Atelier — Demo — 2 jobs running, 1 queued');
    expect(model.items[0]).toEqual({ kind: 'status', label: 'Demo · 2 jobs running, 1 queued' });
    expect(trayModel('Atelier', { queued: 0, running: 0 }, false, false).tooltip).toBe('Atelier — No jobs in progress');
  });

  it('reads --demo from the command line', () => {
    expect(wantsDemoAtStart(['/usr/bin/atelier', '.', '--demo'])).toBe(true);
    expect(wantsDemoAtStart(['/usr/bin/atelier', '.'])).toBe(false);
  });
});
