// The Electron window: the security options really in force, the bridge and nothing else,
// no popups, no navigation away. Runs only where an Electron binary exists.
import { expect, test } from '@playwright/test';
import { launchAtelier, skipWithoutElectron } from './electron-app.ts';

test('the main window is sandboxed, context-isolated and has no Node integration', async ({}, testInfo) => {
  skipWithoutElectron(testInfo);
  const running = await launchAtelier();
  try {
    const prefs = await running.app.evaluate(({ BrowserWindow }) => {
      const win = BrowserWindow.getAllWindows()[0];
      // Undocumented (so not in electron.d.ts) but present: the preferences the page really got.
      type WithLastPrefs = { getLastWebPreferences(): Record<string, unknown> | null };
      const last = win ? (win.webContents as unknown as WithLastPrefs).getLastWebPreferences() : null;
      return last
        ? {
            contextIsolation: last.contextIsolation,
            sandbox: last.sandbox,
            nodeIntegration: last.nodeIntegration,
            webviewTag: last.webviewTag,
            webSecurity: last.webSecurity,
          }
        : null;
    });
    expect(prefs).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      webSecurity: true,
    });
    const page = await running.window.evaluate(() => ({
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
      bridge: Object.keys((window as unknown as { atelier: object }).atelier).sort(),
      url: location.href,
    }));
    expect(page).toEqual({
      require: 'undefined',
      process: 'undefined',
      bridge: ['invoke', 'on'],
      url: 'atelier://app/index.html',
    });
  } finally {
    await running.close();
  }
});

test('the bridge reaches the core, while window.open and navigation away do nothing', async ({}, testInfo) => {
  skipWithoutElectron(testInfo);
  const running = await launchAtelier();
  try {
    const info = await running.window.evaluate(() =>
      (
        window as unknown as {
          atelier: { invoke(c: string, a: unknown): Promise<{ ok: boolean; value?: { host: string } }> };
        }
      ).atelier.invoke('app:info', undefined),
    );
    expect(info).toMatchObject({ ok: true, value: { host: 'electron' } });
    expect(await running.window.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
    await running.window.evaluate(() => {
      location.href = 'file:///etc/passwd';
    });
    await running.window.waitForTimeout(500);
    expect(running.window.url()).toBe('atelier://app/index.html');
    expect(running.app.windows()).toHaveLength(1);
  } finally {
    await running.close();
  }
});
