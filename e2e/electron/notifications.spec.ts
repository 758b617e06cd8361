// A finished job's notification, clicked, brings the window forward and opens the asset in the
// renderer. Runs only where an Electron binary exists.
import { expect, test } from '@playwright/test';
import { launchAtelier, skipWithoutElectron } from './electron-app.ts';

interface NotifyHooks {
  __atelierE2e: {
    notify(n: { title: string; body: string; jobId?: string; assetId?: string }): void;
    clickLastNotification(): void;
  };
}

test('clicking a notification opens its asset in the window', async ({}, testInfo) => {
  skipWithoutElectron(testInfo);
  const running = await launchAtelier();
  try {
    const supported = await running.app.evaluate(({ Notification }) => Notification.isSupported());
    testInfo.skip(!supported, 'skipped: this desktop session has no notification service');
    await running.window.evaluate(() => {
      const w = window as unknown as {
        atelier: { on(e: string, l: (p: unknown) => void): () => void };
        __opened?: unknown;
      };
      w.atelier.on('shell:open-asset', (payload) => (w.__opened = payload));
    });
    await running.app.evaluate(() => {
      const hooks = (globalThis as unknown as NotifyHooks).__atelierE2e;
      hooks.notify({ title: 'Image ready', body: 'sunset', jobId: 'job_1', assetId: 'img_1' });
      hooks.clickLastNotification();
    });
    await expect
      .poll(() => running.window.evaluate(() => (window as unknown as { __opened?: unknown }).__opened))
      .toEqual({ assetId: 'img_1', jobId: 'job_1' });
    expect(await running.app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible())).toBe(true);
  } finally {
    await running.close();
  }
});
