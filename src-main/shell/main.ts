// The Electron shell: lifecycle, the secure window, tray, menus and the host adapters handed
// to the core. Thin glue: every decision worth testing lives in a pure helper next to this file.
//
// The start is a list of named steps (startup/steps.ts), one small file each where there is
// more than a call or two. Any step that throws ends in a native error box saying which step
// failed and where the log is, exit code 1 and the single-instance lock released
// (startup/failure.ts): a start never fails silently. Everything up to registerSchemes runs
// synchronously, because Electron fires 'ready' as soon as this module has run.
import { app, net, powerMonitor, session } from 'electron';
import { join } from 'node:path';
import type { AccountInfo } from '../contract/ipc/app.ts';
import { createLogger, logFilePath, type Logger } from '../core/log/index.ts';
import { APP_NAME, defaultDataDir } from '../core/paths.ts';
import { registerSchemes, serveMedia, serveRenderer } from './app-protocol.ts';
import { wantsDemoAtStart, withDemoBadge } from './demo-badge.ts';
import { openSettingsStore } from './electron-store-adapter.ts';
import { bindIpc } from './ipc-binding.ts';
import { loadProblemPage } from './load-problem-page.ts';
import { applyOpenAtLogin } from './login-item.ts';
import { bridgePowerSignals } from './power-bridge.ts';
import { hardenSession, hardenWebContents } from './security.ts';
import { installShellMenu } from './startup/app-menu.ts';
import { followAppSignals, type AppSignals } from './startup/app-signals.ts';
import { explainCloseToTray, tellSettingsSetAside } from './startup/dialogs.ts';
import { exposeE2eHooks } from './startup/e2e-hooks.ts';
import { failStartup } from './startup/failure.ts';
import { createShellHost } from './startup/host-services.ts';
import { claimInstance } from './startup/instance.ts';
import { listenToLifecycle, type Lifecycle } from './startup/lifecycle.ts';
import { openCore } from './startup/open-core.ts';
import { StartupCancelled, startupSteps } from './startup/steps.ts';
import { startTrayPresence } from './startup/tray-presence.ts';
import { createAppTray } from './tray.ts';
import { startUpdater, type RunningUpdater } from './updater/start-updater.ts';
import type { UpdateOffer } from './updater/update-policy.ts';
import { trayIsShown } from './tray-host.ts';
import { preloadFileIn } from './window.ts';
import { createWindowController, type WindowController } from './window-controller.ts';

/** The Windows AppUserModelID of packaged builds (notifications are attributed to it); electron-builder's appId. */
export const APP_ID = 'app.atelier.desktop';
const SHUTDOWN_DEADLINE_MS = 15_000;

/** tray.png and trayTemplate.png: unpacked next to the app in packaged builds (see electron-builder.yml). */
const trayImagesDir = (): string =>
  app.isPackaged ? join(process.resourcesPath, 'tray') : join(app.getAppPath(), 'resources', 'tray');

export async function startShell(): Promise<void> {
  const dataDir = defaultDataDir();
  const logFile = logFilePath(dataDir);
  let logger: Logger | null = null;
  let lifecycle: Lifecycle | null = null;
  const log = (message: string, error?: unknown): void => logger?.child('shell').warn(message, error);
  const steps = startupSteps({
    cancelled: () => lifecycle?.quitting() ?? false,
    onStep: (name) => logger?.debug(`start: ${name}`),
  });
  try {
    if (!steps.run('Opening the data folder', () => claimInstance(app, dataDir, APP_NAME))) {
      // Another copy holds the lock: Electron has told it (second-instance), it shows its window.
      app.quit();
      return;
    }
    // Right after the lock, so a second launch, a dock click or a quit during the start is heard.
    const life = (lifecycle = listenToLifecycle(app, {
      platform: process.platform,
      deadlineMs: SHUTDOWN_DEADLINE_MS,
      log,
      signals: process,
    }));
    // One rotating, redacting log file in the data folder (Help → Open Logs Folder).
    const openedLogger = (logger = steps.run('Opening the log', () =>
      createLogger({ file: logFile, level: app.isPackaged ? 'info' : 'debug', stderr: !app.isPackaged }),
    ));
    life.addCloser('log', () => openedLogger.close());
    steps.run('Securing the app', () => {
      app.enableSandbox();
      registerSchemes();
      app.on('web-contents-created', (_event, contents) =>
        hardenWebContents(contents, { onRefused: (what, detail) => log(`refused ${what}: ${detail}`) }),
      );
    });
    // Asked while Electron starts; the answer is needed only once the tray is made.
    const trayShownAtStart = trayIsShown(process.platform);

    await steps.wait('Starting Electron', () => app.whenReady());
    steps.run('Serving the app', () => {
      // Windows attributes notifications to this id; unpackaged, to the running executable's.
      if (process.platform === 'win32') app.setAppUserModelId(app.isPackaged ? APP_ID : process.execPath);
      hardenSession(session.defaultSession, { onRefused: (what, detail) => log(`refused ${what}: ${detail}`) });
      serveRenderer(session.defaultSession, join(import.meta.dirname, '..', 'renderer'), () =>
        loadProblemPage({ appName: APP_NAME, logFile }),
      );
    });

    let settingsSetAside: string | null = null;
    const store = steps.run('Reading the settings', () =>
      openSettingsStore(dataDir, {
        onSetAside: (movedTo) => {
          settingsSetAside = movedTo;
          log(`settings.json was not valid JSON: set aside as ${movedTo}, defaults used`);
        },
      }),
    );

    // Made below; the host adapters and the tray reach it only once the user can act.
    let windows: WindowController | null = null;
    let signals: AppSignals | null = null;
    const host = createShellHost({
      window: () => windows?.current() ?? null,
      openAsset: (target) => windows?.showAndTell(() => core.events.emit('shell:open-asset', target)),
      demoMode: () => signals?.demoMode() ?? false,
      log,
    });
    life.addCloser('keep awake', () => host.keepAwake.stop());
    const core = await steps.wait('Opening the library', () =>
      openCore({ dataDir, logger: openedLogger, store, hostServices: host.services, addCloser: life.addCloser }),
    );
    const settings = core.settings;

    steps.run('Serving the library', () => {
      serveMedia(
        session.defaultSession,
        (request) => core.serveMedia(request),
        (error) => log('media request failed', error),
      );
      const stopPower = bridgePowerSignals({ powerMonitor, isOnline: () => net.isOnline(), hub: host.powerHub });
      life.addCloser('power signals', stopPower);
    });

    let updater: RunningUpdater | null = null;
    const trays = steps.run('Making the tray icon', () =>
      startTrayPresence({
        create: () =>
          createAppTray({
            appName: APP_NAME,
            platform: process.platform,
            imagesDir: trayImagesDir(),
            run: (command) => {
              if (command === 'open') windows?.show();
              else if (command === 'toggle-polling') settings.update({ pollingPaused: !settings.get().pollingPaused });
              else if (command === 'restart-to-update') updater?.restartToUpdate();
              else app.quit();
            },
          }),
        isShown: () => trayIsShown(process.platform),
        shownAtStart: trayShownAtStart,
        log,
      }),
    );
    life.addCloser('tray', () => trays.destroy());

    const shown = (windows = createWindowController({
      settings,
      preloadFile: preloadFileIn(join(import.meta.dirname, '..', 'preload')),
      devTools: !app.isPackaged,
      title: () => withDemoBadge(APP_NAME, signals?.demoMode() ?? false),
      quitting: () => life.quitting(),
      trayAvailable: () => trays.available(),
      explainCloseToTray: () => void explainCloseToTray(APP_NAME, settings, () => app.quit()),
      onFocus: () => trays.recheck(),
      log,
    }));

    steps.run('Connecting the window to the library', () => {
      const unbindIpc = bindIpc(core, () => [shown.current()].filter((w) => w !== null), log);
      life.addCloser('ipc', unbindIpc);
      const followed = (signals = followAppSignals({
        core,
        trays,
        keepAwake: host.keepAwake,
        onDemoMode: (demo) => shown.setTitle(withDemoBadge(APP_NAME, demo)),
        applyOpenAtLogin: (on) => {
          try {
            const facts = { platform: process.platform, isPackaged: app.isPackaged, execPath: process.execPath };
            applyOpenAtLogin(on, APP_NAME, { ...facts, appPath: app.getAppPath(), env: process.env }, app);
          } catch (error) {
            log('could not change Open at login', error);
          }
        },
      }));
      life.addCloser('app signals', () => followed.stop());
    });

    await steps.wait('Opening the account', async () => {
      const status = await core.dispatch('account:status', undefined);
      const account = status.ok ? (status.value as AccountInfo) : null;
      signals?.showAccount(account);
      if (wantsDemoAtStart(process.argv) && account?.mode !== 'demo') {
        const started = await core.dispatch('account:use-demo', undefined);
        if (!started.ok) log(`demo mode could not start: ${started.error.message}`);
      }
    });

    const buildMenu = (update: UpdateOffer | null): void =>
      installShellMenu({
        appName: APP_NAME,
        dataDir,
        dev: !app.isPackaged,
        openSettings: () => shown.showAndTell(() => core.events.emit('shell:command', { command: 'open-settings' })),
        update,
        restartToUpdate: () => updater?.restartToUpdate(),
        log,
      });
    steps.run('Building the menu', () => buildMenu(null));

    steps.run('Opening the window', () => {
      const opened = shown.open();
      const setAside = settingsSetAside;
      if (setAside) opened.once('ready-to-show', () => tellSettingsSetAside(APP_NAME, setAside, shown.current()));
      // A second launch or a dock click from now on (or one heard during the start) shows it.
      life.whenShown(() => void shown.show());
    });
    // Checks at start and every 6 h in packaged builds; "Restart to Update" in the menu and tray once ready.
    const running = (updater = steps.run('Following updates', () =>
      startUpdater({
        isPackaged: app.isPackaged,
        appName: APP_NAME,
        core,
        logger: openedLogger.child('updater'),
        onOffer: (offer) => {
          buildMenu(offer);
          trays.offerUpdate(offer);
        },
        // electron-updater closes the windows before before-quit: close-to-tray must let them go.
        onBeforeInstall: () => life.markQuitting(),
        notificationTitle: (title) => withDemoBadge(title, signals?.demoMode() ?? false),
      }),
    ));
    life.addCloser('updater', () => running.stop());
    exposeE2eHooks({
      tray: () => trays.tray(),
      notify: (n) => host.notifier.notify(n),
      clickLastNotification: () => void host.lastNotification()?.emit('click'),
      emitQueueCounts: (next) => core.events.emit('queue:counts', next),
    });
    openedLogger.info(`started after ${steps.begun().length} steps`);
  } catch (error) {
    if (error instanceof StartupCancelled) {
      // Quit was asked for while starting: close what was opened since the quit's own close.
      await lifecycle?.closeAll();
      app.quit();
      return;
    }
    await failStartup({ appName: APP_NAME, error, logger, logFile, lifecycle });
  }
}

/** startShell with a last resort, should reporting a failure itself fail: never a silent process. */
export function runShell(): void {
  startShell().catch((error: unknown) => {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${APP_NAME} could not start: ${detail}\n`);
    app.exit(1);
  });
}
