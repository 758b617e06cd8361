// The main window with Electron's security checklist applied.
import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import { APP_ORIGIN, isAppUrl } from './app-protocol.ts';

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  spellcheck: false,
} as const;

export function createMainWindow(preloadDir: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Atelier',
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: join(preloadDir, 'index.cjs') },
  });
  win.once('ready-to-show', () => win.show());
  // Navigation away and new windows are denied; https links open in the system browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
