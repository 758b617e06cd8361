// electron-updater as the controller's UpdateSource. Types only from electron-updater here: the
// app passes its `autoUpdater` (start-updater.ts), the tests a real AppUpdater reading a loopback
// feed. electron-updater reads the feed from app-update.yml (written by electron-builder from the
// `publish` entry of electron-builder.yml), parses latest*.yml, compares versions with semver,
// honours stagingPercentage, and verifies the download's sha512.
import type { AppUpdater, Logger, ProgressInfo } from 'electron-updater';
import type { CheckOutcome, UpdateSource } from './update-controller.ts';

export interface UpdaterChatter {
  /** electron-updater's own lines (checking, found, downloading, its error stacks). */
  debug(message: string): void;
}

/** electron-updater's lines go to the debug level: the controller logs what matters once. */
export function quietLogger(log: UpdaterChatter): Logger {
  const line = (message: unknown): void => log.debug(`electron-updater: ${String(message)}`);
  return { info: line, warn: line, error: line, debug: line };
}

export interface SourceOptions {
  /**
   * Start the new version once installed (default true). Off for an AppImage: electron-updater
   * would start it at once, while this instance still holds the single-instance lock, and it
   * would quit; start-updater.ts relaunches it after exit instead.
   */
  forceRunAfter?: boolean;
}

export function electronUpdaterSource(
  updater: AppUpdater,
  log: UpdaterChatter,
  options: SourceOptions = {},
): UpdateSource {
  // The controller decides when to download; a downloaded update still installs on a normal quit.
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = true;
  updater.allowDowngrade = false;
  updater.logger = quietLogger(log);
  return {
    async check(): Promise<CheckOutcome> {
      const result = await updater.checkForUpdates();
      if (result === null) return { kind: 'inactive', reason: 'electron-updater is not active for this install' };
      return result.isUpdateAvailable
        ? { kind: 'available', version: result.updateInfo.version }
        : { kind: 'none', latest: result.updateInfo.version };
    },
    async download(onProgress) {
      const progress = (info: ProgressInfo): void => onProgress(info.percent);
      updater.on('download-progress', progress);
      try {
        await updater.downloadUpdate();
      } finally {
        updater.off('download-progress', progress);
      }
    },
    install() {
      // Silent: the user already chose "Restart to Update" (Windows would show the installer's pages).
      updater.quitAndInstall(true, options.forceRunAfter ?? true);
    },
  };
}
