import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { listenToLifecycle, type LifecycleApp } from './lifecycle.ts';

/** Electron's quit sequence in miniature: before-quit may be prevented; otherwise the app quits. */
function fakeApp() {
  const emitter = new EventEmitter();
  let quits = 0;
  const app = Object.assign(emitter, {
    quitted: false,
    quit() {
      quits += 1;
      let prevented = false;
      emitter.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) app.quitted = true;
    },
    quits: () => quits,
  });
  return app;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('lifecycle', () => {
  it('remembers a second launch heard during the start and shows the window once it exists', () => {
    const app = fakeApp();
    const life = listenToLifecycle(app as unknown as LifecycleApp, {
      platform: 'linux',
      deadlineMs: 1_000,
      log: () => {},
    });
    app.emit('second-instance');
    app.emit('activate');
    let shown = 0;
    life.whenShown(() => (shown += 1));
    expect(shown).toBe(1);
    app.emit('second-instance');
    expect(shown).toBe(2);
  });

  it('quits when the last window closes, except on macOS', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const app = fakeApp();
      listenToLifecycle(app as unknown as LifecycleApp, { platform, deadlineMs: 1_000, log: () => {} });
      app.emit('window-all-closed');
      expect(app.quits()).toBe(platform === 'darwin' ? 0 : 1);
    }
  });

  it('holds the quit until every closer ran, newest first, then quits for real', async () => {
    const app = fakeApp();
    const life = listenToLifecycle(app as unknown as LifecycleApp, {
      platform: 'linux',
      deadlineMs: 1_000,
      log: () => {},
    });
    const closed: string[] = [];
    life.addCloser('log', () => void closed.push('log'));
    life.addCloser('core', async () => {
      await settle();
      closed.push('core');
    });
    life.addCloser('tray', () => void closed.push('tray'));
    app.quit();
    expect(life.quitting()).toBe(true);
    expect(app.quitted).toBe(false);
    await settle();
    await settle();
    expect(closed).toEqual(['tray', 'core', 'log']);
    expect(app.quitted).toBe(true);
  });

  it('runs each closer once, and one added later on the next closeAll', async () => {
    const problems: string[] = [];
    const app = fakeApp();
    const life = listenToLifecycle(app as unknown as LifecycleApp, {
      platform: 'linux',
      deadlineMs: 1_000,
      log: (message) => problems.push(message),
    });
    const closed: string[] = [];
    life.addCloser('a', () => {
      closed.push('a');
      throw new Error('a failed');
    });
    await life.closeAll();
    life.addCloser('b', () => void closed.push('b'));
    await life.closeAll();
    expect(closed).toEqual(['a', 'b']);
    expect(problems).toEqual(['shutdown step a failed']);
  });
});
