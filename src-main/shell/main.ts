// The Electron shell: lifecycle, the secure window, tray, menus and the host adapters handed
// to the core. Thin glue: every decision worth testing lives in a pure helper next to this file.
import {
  app,
  BrowserWindow,
  dialog,
  net,
  Notification,
  powerMonitor,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import Store from 'electron-store';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccountInfo } from '../contract/ipc/app.ts';
import type { QueueCountsInfo } from '../contract/ipc/shell.ts';
import { createEmulatorDemo } from '../demo/emulator-demo.ts';
import { createCore, type Core } from '../core/core.ts';
import { logsDir } from '../core/host/folders.ts';
import { createLogger } from '../core/log/index.ts';
import { coalesceNotifier, type NotificationTarget } from '../core/host/notifier.ts';
import { createPowerSignalHub } from '../core/host/power-signals.ts';
import { APP_NAME, defaultDataDir } from '../core/paths.ts';
import { registerSchemes, serveMedia, serveRenderer } from './app-protocol.ts';
import { closeAction } from './close-behavior.ts';
import { isDemo, wantsDemoAtStart, withDemoBadge } from './demo-badge.ts';
import { adaptElectronStore } from './electron-store-adapter.ts';
import { bindIpc } from './ipc-binding.ts';
import { installAppMenu } from './menu.ts';
import { createOsNotifier } from './os-notifier.ts';
import { bridgePowerSignals } from './power-bridge.ts';
import { createSafeStorageCipher } from './safe-storage-cipher.ts';
import { hardenSession, hardenWebContents } from './security.ts';
import { createShutdown } from './shutdown.ts';
import { createTaskbarProgress } from './taskbar-progress.ts';
import { createAppTray, type AppTray } from './tray.ts';
import { createMainWindow, preloadFileIn, WINDOW_SIZE } from './window.ts';
import { mediaOut } from './media-out.ts';
import { captureWindowState, placeWindow } from './window-state.ts';
import { electronMediaUrl } from '../core/library/media-serving.ts';

/** Also the Windows AppUserModelID (notifications are attributed to it); matches electron-builder's appId. */
export const APP_ID = 'app.atelier.desktop';
const SHUTDOWN_DEADLINE_MS = 15_000;

/** tray.png and trayTemplate.png: unpacked next to the app in packaged builds (see electron-builder.yml). */
const trayImagesDir = (): string =>
  app.isPackaged ? join(process.resourcesPath, 'tray') : join(app.getAppPath(), 'resources', 'tray');

export async function startShell(): Promise<void> {
  // The single-instance lock lives in userData, so the data folder must be chosen first.
  const dataDir = defaultDataDir();
  app.setPath('userData', dataDir);
  app.setName(APP_NAME);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // One rotating, redacting log file in the data folder (Help → Open Logs Folder).
  const logger = createLogger({
    file: join(logsDir(dataDir), 'atelier.log'),
    level: app.isPackaged ? 'info' : 'debug',
    stderr: !app.isPackaged,
  });
  const shellLog = logger.child('shell');
  const log = (message: string, error?: unknown): void => shellLog.warn(message, error);
  app.enableSandbox();
  registerSchemes();
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, { onRefused: (what, detail) => log(`refused ${what}: ${detail}`) }),
  );
  await app.whenReady();
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

  hardenSession(session.defaultSession, { onRefused: (what, detail) => log(`refused ${what}: ${detail}`) });
  serveRenderer(session.defaultSession, join(import.meta.dirname, '..', 'renderer'));

  let win: BrowserWindow | null = null;
  let core: Core | null = null;
  let tray: AppTray | null = null;
  let quitting = false;

  const showWindow = (): BrowserWindow => {
    if (!win || win.isDestroyed()) win = openWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    return win;
  };

  /** Shows the window, then tells its page; a page still loading (a window just made) hears it once loaded. */
  const showAndTell = (tell: () => void): void => {
    const page = showWindow().webContents;
    if (page.isLoading()) page.once('did-finish-load', tell);
    else tell();
  };

  const openAsset = (target: NotificationTarget): void =>
    showAndTell(() => core?.events.emit('shell:open-asset', target));

  let lastNotification: Notification | null = null;
  // The demo account is badged in the window title, the tray and notifications (demo-badge.ts).
  let demoMode = false;
  const powerHub = createPowerSignalHub({ onListenerError: (error) => log('power listener failed', error) });
  const notifier = coalesceNotifier(
    createOsNotifier({
      isSupported: () => Notification.isSupported(),
      create: (options) =>
        (lastNotification = new Notification({
          ...options,
          title: withDemoBadge(options.title, demoMode),
          silent: false,
        })),
      onOpen: openAsset,
    }),
    {
      windowMs: 1_500,
      summarize: (items) => ({ title: APP_NAME, body: `${items.length} jobs finished or need attention.` }),
    },
  );
  // One bar for the app; the engine adds concurrent transfers up with aggregateProgress (core/host).
  const progress = createTaskbarProgress(() => win);

  const store = new Store<Record<string, unknown>>({
    name: 'settings',
    cwd: dataDir,
    accessPropertiesByDotNotation: false,
    configFileMode: 0o600,
  });
  // The same in-process emulator demo as browser mode: one demo library per data folder.
  const demo = createEmulatorDemo({ dataDir });
  core = await createCore({
    dataDir,
    host: {
      kind: 'electron',
      appVersion: app.getVersion(),
      chromiumVersion: process.versions.chrome ?? null,
      electronVersion: process.versions.electron ?? null,
    },
    logger,
    mediaUrlFor: electronMediaUrl,
    cipher: createSafeStorageCipher(safeStorage, process.platform),
    store: adaptElectronStore(store),
    demo,
    hostServices: {
      notifier,
      power: powerHub,
      progress,
      desktop: {
        openFolder: async (path) => {
          const problem = await shell.openPath(path);
          if (problem) throw new Error(problem);
        },
        showItemInFolder: (path) => shell.showItemInFolder(path),
        openItem: async (path) => {
          const problem = await shell.openPath(path);
          if (problem) throw new Error(problem);
        },
        openExternal: (url) => shell.openExternal(url),
        pickFolder: async ({ title, buttonLabel, defaultPath }) => {
          const options = {
            title,
            buttonLabel,
            defaultPath,
            properties: ['openDirectory', 'createDirectory', 'promptToCreate'] as (
              'openDirectory' | 'createDirectory' | 'promptToCreate'
            )[],
          };
          const parent = win && !win.isDestroyed() ? win : null;
          const picked = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
          return picked.canceled ? null : (picked.filePaths[0] ?? null);
        },
        ...mediaOut(() => win),
      },
    },
  });
  const settings = core.settings;
  serveMedia(
    session.defaultSession,
    () => settings.get().libraryDir,
    (error) => log('media request failed', error),
  );
  const stopPower = bridgePowerSignals({ powerMonitor, isOnline: () => net.isOnline(), hub: powerHub });

  function openWindow(): BrowserWindow {
    const primary = screen.getPrimaryDisplay();
    const others = screen.getAllDisplays().filter((display) => display.id !== primary.id);
    const placement = placeWindow(
      settings.get().windowState,
      [primary, ...others].map((display) => display.workArea),
      WINDOW_SIZE,
    );
    const created = createMainWindow({
      preloadFile: preloadFileIn(join(import.meta.dirname, '..', 'preload')),
      placement,
      devTools: !app.isPackaged,
    });
    let saveTimer: NodeJS.Timeout | null = null;
    const saveState = (): void => {
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = null;
      if (created.isDestroyed() || created.isMinimized()) return;
      settings.update({ windowState: captureWindowState(created, WINDOW_SIZE) });
    };
    const saveSoon = (): void => {
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = setTimeout(saveState, 500);
    };
    created.on('resize', saveSoon);
    created.on('move', saveSoon);
    created.on('maximize', saveSoon);
    created.on('unmaximize', saveSoon);
    created.on('close', (event) => {
      saveState();
      const values = settings.get();
      const action = closeAction({
        quitting,
        closeToTray: values.closeToTray,
        closeToTrayExplained: values.closeToTrayExplained,
        trayAvailable: tray !== null,
      });
      if (action === 'close') return;
      event.preventDefault();
      created.hide();
      if (action === 'hide-and-explain') void explainCloseToTray();
    });
    // The shell owns the title (it carries the Demo badge); the page's <title> does not replace it.
    created.on('page-title-updated', (event) => event.preventDefault());
    created.setTitle(withDemoBadge(APP_NAME, demoMode));
    return created;
  }

  async function explainCloseToTray(): Promise<void> {
    settings.update({ closeToTrayExplained: true });
    const { response } = await dialog.showMessageBox({
      type: 'info',
      title: APP_NAME,
      message: `${APP_NAME} keeps running in the tray`,
      detail:
        'Queued jobs keep finishing and downloading while the window is closed. Open Atelier again from its tray icon; quit from the tray menu. You can change this in Settings.',
      buttons: ['Keep Running', 'Quit Now'],
      defaultId: 0,
      cancelId: 0,
    });
    if (response === 1) {
      settings.update({ closeToTray: false });
      app.quit();
    }
  }

  const unbindIpc = bindIpc(
    core,
    () => (win && !win.isDestroyed() ? [win] : []),
    (reason) => log(reason),
  );

  let counts: QueueCountsInfo = { queued: 0, running: 0 };
  try {
    tray = createAppTray({
      appName: APP_NAME,
      platform: process.platform,
      imagesDir: trayImagesDir(),
      run: (command) => {
        if (command === 'open') showWindow();
        else if (command === 'toggle-polling') settings.update({ pollingPaused: !settings.get().pollingPaused });
        else app.quit();
      },
    });
    tray.update(counts, settings.get().pollingPaused, demoMode);
  } catch (error) {
    // Some Linux desktops have no tray: the app still works, closing the window then quits.
    log('no tray available', error);
  }
  const showAccountMode = (account: AccountInfo): void => {
    demoMode = isDemo(account);
    if (win && !win.isDestroyed()) win.setTitle(withDemoBadge(APP_NAME, demoMode));
    tray?.update(counts, settings.get().pollingPaused, demoMode);
  };
  const stopCounts = core.events.subscribe((event, payload) => {
    if (event === 'account:changed') return showAccountMode(payload as AccountInfo);
    if (event !== 'queue:counts') return;
    counts = payload as QueueCountsInfo;
    tray?.update(counts, settings.get().pollingPaused, demoMode);
  });
  const stopSettings = settings.onChange((values, changed) => {
    if (changed.includes('pollingPaused')) tray?.update(counts, values.pollingPaused, demoMode);
  });
  const status = await core.dispatch('account:status', undefined);
  const account = status.ok ? (status.value as AccountInfo) : null;
  if (account) showAccountMode(account);
  if (wantsDemoAtStart(process.argv) && !isDemo(account)) {
    const started = await core.dispatch('account:use-demo', undefined);
    if (!started.ok) log(`demo mode could not start: ${started.error.message}`);
  }

  const openFolder = (dir: string): void => {
    void mkdir(dir, { recursive: true })
      .then(() => shell.openPath(dir))
      .catch((error: unknown) => log('could not open a folder', error));
  };
  installAppMenu(
    { platform: process.platform, appName: APP_NAME, dev: !app.isPackaged },
    {
      openSettings: () => showAndTell(() => core?.events.emit('shell:command', { command: 'open-settings' })),
      openDataFolder: () => openFolder(dataDir),
      openLogsFolder: () => openFolder(logsDir(dataDir)),
    },
  );

  win = openWindow();
  exposeE2eHooks({
    tray: () => tray,
    notify: (n) => notifier.notify(n),
    flushNotifications: () => notifier.flush(),
    clickLastNotification: () => void lastNotification?.emit('click'),
    emitQueueCounts: (next) => core?.events.emit('queue:counts', next),
  });

  app.on('second-instance', () => void showWindow());
  app.on('activate', () => void showWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  const shutdown = createShutdown(
    [
      {
        name: 'stop signals',
        run: () => {
          stopPower();
          stopCounts();
          stopSettings();
        },
      },
      { name: 'unbind ipc', run: unbindIpc },
      { name: 'core', run: () => core?.close() },
      { name: 'demo emulator', run: () => demo.stop() },
      { name: 'tray', run: () => tray?.destroy() },
      { name: 'log', run: () => logger.close() },
    ],
    { deadlineMs: SHUTDOWN_DEADLINE_MS, onProblem: (step, error) => log(`shutdown step ${step} failed`, error) },
  );
  let closedCleanly = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (closedCleanly) return;
    // Hold the quit until SQLite and downloads have closed, then quit for real.
    event.preventDefault();
    void shutdown.run().then(() => {
      closedCleanly = true;
      app.quit();
    });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
}

interface E2eHooks {
  tray(): AppTray | null;
  notify(notification: { title: string; body: string; jobId?: string; assetId?: string }): void;
  flushNotifications(): void;
  clickLastNotification(): void;
  emitQueueCounts(counts: QueueCountsInfo): void;
}

/** Read by the Electron e2e (e2e/electron) through electronApp.evaluate; main-process only. */
function exposeE2eHooks(hooks: E2eHooks): void {
  if (process.env.ATELIER_E2E_HOOKS === '1') (globalThis as { __atelierE2e?: E2eHooks }).__atelierE2e = hooks;
}
