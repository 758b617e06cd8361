// The tray follows the job queue and the pause setting. Runs only where an Electron binary exists.
import { expect, test } from '@playwright/test';
import { launchAtelier, skipWithoutElectron } from './electron-app.ts';

interface TrayHooks {
  __atelierE2e: {
    tray(): { model(): { tooltip: string; items: { kind: string; label?: string; checked?: boolean }[] } } | null;
    emitQueueCounts(counts: { queued: number; running: number }): void;
  };
}

test('the tray shows queued and running counts and the paused state', async ({}, testInfo) => {
  skipWithoutElectron(testInfo);
  const running = await launchAtelier();
  try {
    const tooltip = () =>
      running.app.evaluate(
        () => (globalThis as unknown as TrayHooks).__atelierE2e.tray()?.model().tooltip ?? 'no tray',
      );
    expect(await tooltip()).toBe('Atelier — No jobs in progress');
    await running.app.evaluate(() =>
      (globalThis as unknown as TrayHooks).__atelierE2e.emitQueueCounts({ queued: 3, running: 2 }),
    );
    expect(await tooltip()).toBe('Atelier — 2 jobs running, 3 queued');
    await running.window.evaluate(() =>
      (window as unknown as { atelier: { invoke(c: string, a: unknown): Promise<unknown> } }).atelier.invoke(
        'settings:update',
        { pollingPaused: true },
      ),
    );
    await expect.poll(tooltip).toBe('Atelier — 2 jobs running, 3 queued (checking paused)');
  } finally {
    await running.close();
  }
});
