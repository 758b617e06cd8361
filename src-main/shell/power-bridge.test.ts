import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createPowerSignalHub } from '../core/host/power-signals.ts';
import { bridgePowerSignals } from './power-bridge.ts';

describe('power bridge', () => {
  it('forwards suspend/resume and polls the network state', () => {
    vi.useFakeTimers();
    try {
      const powerMonitor = new EventEmitter();
      let online = true;
      const hub = createPowerSignalHub();
      const seen: string[] = [];
      hub.onSuspend(() => seen.push('suspend'));
      hub.onResume(() => seen.push(`resume online=${hub.isOnline()}`));
      hub.onOnlineChange((value) => seen.push(`online=${value}`));
      const stop = bridgePowerSignals({ powerMonitor, isOnline: () => online, hub, intervalMs: 1_000 });

      online = false;
      vi.advanceTimersByTime(1_000);
      powerMonitor.emit('suspend');
      online = true;
      // Resuming re-checks the network before the engine hears about the resume.
      powerMonitor.emit('resume');
      expect(seen).toEqual(['online=false', 'suspend', 'online=true', 'resume online=true']);

      stop();
      online = false;
      vi.advanceTimersByTime(5_000);
      powerMonitor.emit('suspend');
      expect(seen).toHaveLength(4);
      expect(powerMonitor.listenerCount('resume')).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts from the real state when the machine is offline at launch', () => {
    const hub = createPowerSignalHub();
    const stop = bridgePowerSignals({
      powerMonitor: new EventEmitter(),
      isOnline: () => false,
      hub,
      intervalMs: 60_000,
    });
    expect(hub.isOnline()).toBe(false);
    stop();
  });
});
