// The main window with Electron's security checklist applied, opened where it was last time.
import { BrowserWindow, nativeTheme } from 'electron';
import { join } from 'node:path';
import { APP_ORIGIN } from './app-url.ts';
import type { WindowPlacement, WindowSizeRules } from './window-state.ts';

export const WINDOW_SIZE: WindowSizeRules = { width: 1280, height: 820, minWidth: 900, minHeight: 600 };

export interface MainWindowOptions {
  preloadFile: string;
  placement: WindowPlacement;
  /** Developer tools only in development builds. */
  devTools: boolean;
  icon?: string;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    ...options.placement.bounds,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    title: 'Atelier',
    // Matches the renderer's first paint, so opening does not flash white in dark mode.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1b1b1d' : '#f7f7f8',
    ...(options.icon ? { icon: options.icon } : {}),
    // Written out here rather than spread from a constant, so reviewers and scanners see each one.
    webPreferences: {
      preload: options.preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      // Middle-click would ask for a new window (refused anyway); the app has no use for it.
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      safeDialogs: true,
      enableWebSQL: false,
      spellcheck: false,
      devTools: options.devTools,
    },
  });
  if (options.placement.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  // A failed load is answered by its did-fail-load event (window-controller.ts), not here.
  win.loadURL(APP_INDEX_URL).catch(() => {});
  return win;
}

export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

export const preloadFileIn = (preloadDir: string): string => join(preloadDir, 'index.cjs');
