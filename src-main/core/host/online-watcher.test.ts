import { describe, expect, it, vi } from 'vitest';
import { hasNetworkInterface, watchOnline } from './online-watcher.ts';

describe('watchOnline', () => {
  it('reports changes only, on the interval or when asked', () => {
    vi.useFakeTimers();
    try {
      let online = true;
      const changes: boolean[] = [];
      const watcher = watchOnline({ probe: () => online, onChange: (value) => changes.push(value), intervalMs: 1_000 });
      vi.advanceTimersByTime(3_000);
      expect(changes).toEqual([]);
      online = false;
      vi.advanceTimersByTime(1_000);
      online = true;
      expect(watcher.check()).toBe(true);
      expect(changes).toEqual([false, true]);
      watcher.stop();
      online = false;
      vi.advanceTimersByTime(5_000);
      expect(changes).toEqual([false, true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts a probe that throws as online, so the engine keeps trying', () => {
    const watcher = watchOnline({
      probe: () => {
        throw new Error('no network stack');
      },
      onChange: () => {},
      intervalMs: 60_000,
    });
    expect(watcher.check()).toBe(true);
    watcher.stop();
  });
});

describe('hasNetworkInterface', () => {
  const address = (internal: boolean) => ({
    address: internal ? '127.0.0.1' : '192.168.1.5',
    netmask: '255.255.255.0',
    family: 'IPv4' as const,
    mac: '00:00:00:00:00:00',
    internal,
    cidr: null,
  });

  it('is false with loopback only and true with any external address', () => {
    expect(hasNetworkInterface({ lo: [address(true)] })).toBe(false);
    expect(hasNetworkInterface({ lo: [address(true)], eth0: [address(false)] })).toBe(true);
    expect(hasNetworkInterface({})).toBe(false);
  });
});
