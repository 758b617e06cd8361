// The one main window: opened where it was last time, its geometry remembered, closing hidden
// to the tray only where a tray is really shown, and a page that fails to load (or a renderer
// that dies) reloaded once, then replaced by the load-problem page instead of a blank window.
import type { BrowserWindow } from 'electron';
import { screen } from 'electron';
import type { Settings } from '../core/settings/settings.ts';
import { closeAction } from './close-behavior.ts';
import { LOAD_PROBLEM_URL } from './load-problem-page.ts';
import { createLoadRecovery, isFailedResponse, isPageLoadFailure, isRendererLoss } from './load-recovery.ts';
import { APP_INDEX_URL, createMainWindow, WINDOW_SIZE } from './window.ts';
import { captureWindowState, placeWindow } from './window-state.ts';

export interface WindowControllerOptions {
  settings: Settings;
  preloadFile: string;
  devTools: boolean;
  title(): string;
  quitting(): boolean;
  /** Whether a tray icon is really shown now (tray-host.ts). */
  trayAvailable(): boolean;
  /** The first hide to the tray: tell the user where the app went. */
  explainCloseToTray(): void;
  /** Every time the window gains focus (the tray host is checked again then). */
  onFocus?(): void;
  log(message: string, error?: unknown): void;
}

export interface WindowController {
  /** The window, if it exists and is not destroyed. */
  current(): BrowserWindow | null;
  /** Makes the window if there is none; it shows itself once its page has painted. */
  open(): BrowserWindow;
  /** Opens (or re-opens), restores, shows and focuses the window. */
  show(): BrowserWindow;
  /** Shows the window, then runs `tell` once its page has loaded. */
  showAndTell(tell: () => void): void;
  setTitle(title: string): void;
}

export function createWindowController(options: WindowControllerOptions): WindowController {
  const { settings, log } = options;
  let win: BrowserWindow | null = null;

  const open = (): BrowserWindow => {
    const primary = screen.getPrimaryDisplay();
    const others = screen.getAllDisplays().filter((display) => display.id !== primary.id);
    const placement = placeWindow(
      settings.get().windowState,
      [primary, ...others].map((display) => display.workArea),
      WINDOW_SIZE,
    );
    const created = createMainWindow({ preloadFile: options.preloadFile, placement, devTools: options.devTools });
    rememberGeometry(created, settings);
    recoverFailedLoads(created, options.quitting, log);
    created.on('close', (event) => {
      const values = settings.get();
      const action = closeAction({
        quitting: options.quitting(),
        closeToTray: values.closeToTray,
        closeToTrayExplained: values.closeToTrayExplained,
        trayAvailable: options.trayAvailable(),
      });
      if (action === 'close') return;
      event.preventDefault();
      created.hide();
      if (action === 'hide-and-explain') options.explainCloseToTray();
    });
    if (options.onFocus) created.on('focus', options.onFocus);
    // The shell owns the title (it carries the Demo badge); the page's <title> does not replace it.
    created.on('page-title-updated', (event) => event.preventDefault());
    created.setTitle(options.title());
    return created;
  };

  const current = (): BrowserWindow | null => (win && !win.isDestroyed() ? win : null);
  const ensure = (): BrowserWindow => current() ?? (win = open());
  const show = (): BrowserWindow => {
    const shown = ensure();
    if (shown.isMinimized()) shown.restore();
    shown.show();
    shown.focus();
    return shown;
  };
  return {
    current,
    open: ensure,
    show,
    showAndTell(tell) {
      const page = show().webContents;
      if (page.isLoading()) page.once('did-finish-load', tell);
      else tell();
    },
    setTitle: (title) => current()?.setTitle(title),
  };
}

/** Saves bounds and maximized state (debounced) and once more when the window closes. */
function rememberGeometry(win: BrowserWindow, settings: Settings): void {
  let saveTimer: NodeJS.Timeout | null = null;
  const saveState = (): void => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    if (win.isDestroyed() || win.isMinimized()) return;
    settings.update({ windowState: captureWindowState(win, WINDOW_SIZE) });
  };
  const saveSoon = (): void => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(saveState, 500);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('maximize', saveSoon);
  win.on('unmaximize', saveSoon);
  win.on('close', saveState);
}

function recoverFailedLoads(
  win: BrowserWindow,
  quitting: () => boolean,
  log: (message: string, error?: unknown) => void,
): void {
  const contents = win.webContents;
  const recovery = createLoadRecovery();
  const recover = (why: string, url: string): void => {
    // Renderers end while the app quits: nothing to recover then.
    if (win.isDestroyed() || quitting()) return;
    // The problem page is served from memory; if even it fails, reloading it would only loop.
    if (url.startsWith(LOAD_PROBLEM_URL)) {
      log(`the load-problem page failed too (${why})`);
      return;
    }
    const action = recovery.failed();
    log(
      `the window's page failed (${why}); ${action === 'reload' ? 'reloading it once' : 'showing the load-problem page'}`,
    );
    contents.loadURL(action === 'reload' ? APP_INDEX_URL : LOAD_PROBLEM_URL).catch(() => {});
  };
  contents.on('did-fail-load', (_event, errorCode, description, url, isMainFrame) => {
    if (isPageLoadFailure(errorCode, isMainFrame)) recover(`${description} (${errorCode})`, url);
  });
  contents.on('did-navigate', (_event, url, httpResponseCode) => {
    if (isFailedResponse(httpResponseCode)) recover(`HTTP ${httpResponseCode} for ${url.slice(0, 200)}`, url);
  });
  contents.on('render-process-gone', (_event, details) => {
    if (isRendererLoss(details.reason)) recover(`renderer ${details.reason}`, contents.getURL());
  });
}
