import { describe, expect, it } from 'vitest';
import { createPowerSignalHub, steadyPowerSignals } from './power-signals.ts';

describe('power signal hub', () => {
  it('tells listeners about suspend, resume and real online changes only', () => {
    const hub = createPowerSignalHub();
    const seen: string[] = [];
    hub.onSuspend(() => seen.push('suspend'));
    hub.onResume(() => seen.push('resume'));
    const stop = hub.onOnlineChange((online) => seen.push(`online=${online}`));
    hub.setOnline(true);
    hub.suspend();
    hub.setOnline(false);
    hub.setOnline(false);
    hub.resume();
    stop();
    hub.setOnline(true);
    expect(seen).toEqual(['suspend', 'online=false', 'resume']);
    expect(hub.isOnline()).toBe(true);
  });

  it('keeps calling the other listeners when one throws', () => {
    const errors: unknown[] = [];
    const hub = createPowerSignalHub({ online: false, onListenerError: (error) => errors.push(error) });
    const seen: boolean[] = [];
    hub.onOnlineChange(() => {
      throw new Error('broken');
    });
    hub.onOnlineChange((online) => seen.push(online));
    hub.setOnline(true);
    expect(seen).toEqual([true]);
    expect(errors).toHaveLength(1);
  });

  it('the steady signals never change', () => {
    expect(steadyPowerSignals.isOnline()).toBe(true);
    expect(typeof steadyPowerSignals.onResume(() => {})).toBe('function');
  });
});
