// The auto-updater in the app: electron-updater's autoUpdater (feed from app-update.yml, which
// electron-builder writes from the `publish` entry of electron-builder.yml) driven by the update
// controller, a system notification when an update is ready, and the offer menu and tray show.
// Off in development builds (see updatesAvailability); electron-updater is loaded only when on.
import { app, Notification } from 'electron';
import type { Core } from '../../core/core.ts';
import { electronUpdaterSource } from './electron-updater-source.ts';
import { watchCoreInFlight } from './in-flight.ts';
import { createUpdateController, type UpdateController } from './update-controller.ts';
import { readyNotification, updatesAvailability, type UpdateOffer } from './update-policy.ts';

export interface UpdaterLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string, error?: unknown): void;
}

export interface UpdaterDeps {
  /** app.isPackaged. */
  isPackaged: boolean;
  appName: string;
  /** What is in flight comes from the core's events and lists. */
  core: Pick<Core, 'dispatch' | 'events'>;
  logger: UpdaterLogger;
  /** Menu and tray: rebuild with this offer (null: offer nothing). */
  onOffer(offer: UpdateOffer | null): void;
  /**
   * Called right before the app quits to install: the shell marks itself quitting so that
   * close-to-tray lets the windows close (electron-updater closes them before before-quit).
   */
  onBeforeInstall(): void;
  /** The notification's title as shown (e.g. with the Demo badge). */
  notificationTitle?(title: string): string;
  env?: Record<string, string | undefined>;
}

export interface RunningUpdater {
  offer(): UpdateOffer | null;
  /** "Restart to Update" in the menu, the tray or the notification. */
  restartToUpdate(): void;
  stop(): void;
}

const OFF: RunningUpdater = { offer: () => null, restartToUpdate() {}, stop() {} };

export function startUpdater(deps: UpdaterDeps): RunningUpdater {
  const availability = updatesAvailability({ isPackaged: deps.isPackaged, env: deps.env ?? process.env });
  if (!availability.enabled) {
    deps.logger.info(`updates are off: ${availability.reason}`);
    return OFF;
  }
  const inFlight = watchCoreInFlight(deps.core);
  let controller: UpdateController | null = null;
  let stopped = false;
  // Kept referenced: a collected Notification loses its click handler.
  let shown: Notification | null = null;

  const notifyReady = (version: string): void => {
    if (!Notification.isSupported()) return;
    const text = readyNotification(deps.appName, version);
    shown = new Notification({ title: deps.notificationTitle?.(text.title) ?? text.title, body: text.body });
    shown.on('click', () => controller?.restartToUpdate());
    shown.show();
  };

  void import('electron-updater')
    .then((module) => {
      if (stopped) return;
      const updater = module.default.autoUpdater;
      // An AppImage replaces itself on disk; the new one is started once this one has exited.
      let appImage = process.platform === 'linux' ? ((deps.env ?? process.env)['APPIMAGE'] ?? null) : null;
      updater.on('appimage-filename-updated', (path) => (appImage = path));
      const source = electronUpdaterSource(updater, deps.logger, { forceRunAfter: appImage === null });
      const install = (): void => {
        let failed = false;
        const onError = (): void => void (failed = true);
        updater.once('error', onError);
        source.install(); // installs now, quits on the next tick
        updater.off('error', onError);
        if (appImage && !failed) app.relaunch({ execPath: appImage });
      };
      controller = createUpdateController({
        source: {
          ...source,
          install() {
            deps.onBeforeInstall();
            install();
          },
        },
        inFlight,
        log: deps.logger,
        onOffer: deps.onOffer,
        notifyReady,
      });
      controller.start();
      void inFlight.refresh().catch((error: unknown) => deps.logger.warn('could not read work in flight', error));
    })
    .catch((error: unknown) => deps.logger.warn('the updater could not start', error));

  return {
    offer: () => controller?.offer() ?? null,
    restartToUpdate: () => controller?.restartToUpdate(),
    stop() {
      stopped = true;
      controller?.stop();
      inFlight.close();
      shown?.close();
      shown = null;
    },
  };
}
