import { describe, expect, it } from 'vitest';
import type { AppTray } from '../tray.ts';
import { startTrayPresence } from './tray-presence.ts';

const fakeTray = (): AppTray & { updates: number; destroyed: boolean } => {
  const tray = {
    updates: 0,
    destroyed: false,
    update: () => void (tray.updates += 1),
    model: () => ({ tooltip: '', title: '', items: [] }),
    destroy: () => void (tray.destroyed = true),
  };
  return tray;
};

describe('tray presence', () => {
  it('is available only while a host shows the icon, and asks again on focus after the interval', async () => {
    let now = 0;
    let hostUp = false;
    const logs: string[] = [];
    const tray = fakeTray();
    const presence = startTrayPresence({
      create: () => tray,
      isShown: async () => hostUp,
      shownAtStart: Promise.resolve(false),
      log: (message) => logs.push(message),
      now: () => now,
      recheckIntervalMs: 30_000,
    });
    expect(presence.tray()).toBe(tray);
    expect(presence.available()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(presence.available()).toBe(false);
    hostUp = true;
    presence.recheck();
    await Promise.resolve();
    expect(presence.available()).toBe(false);
    now += 30_000;
    presence.recheck();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(presence.available()).toBe(true);
    presence.update({ queued: 1, running: 0 }, false, false);
    expect(tray.updates).toBe(1);
    presence.destroy();
    expect(tray.destroyed).toBe(true);
    expect(logs.join('\n')).toMatch(/no tray host.*\n.*tray host appeared/);
  });

  it('never makes the caller wait for the desktop, and uses its answer once it comes', async () => {
    let answer: (shown: boolean) => void = () => {};
    const presence = startTrayPresence({
      create: fakeTray,
      isShown: async () => true,
      shownAtStart: new Promise<boolean>((resolve) => (answer = resolve)),
      log: () => {},
    });
    expect(presence.available()).toBe(false);
    answer(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(presence.available()).toBe(true);
  });

  it('has no tray when making one failed, and then never claims one', async () => {
    const presence = startTrayPresence({
      create: () => {
        throw new Error('no StatusNotifier support');
      },
      isShown: async () => true,
      shownAtStart: Promise.resolve(true),
      log: () => {},
    });
    expect(presence.tray()).toBeNull();
    expect(presence.available()).toBe(false);
    presence.update({ queued: 0, running: 0 }, false, false);
    presence.destroy();
  });
});
