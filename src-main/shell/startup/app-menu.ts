// The native application menu with the shell's actions: Settings… opens the Settings view in the
// window; Help opens the logs and data folders (made first if they do not exist yet).
import { shell } from 'electron';
import { mkdir } from 'node:fs/promises';
import { logsDir } from '../../core/host/folders.ts';
import { installAppMenu } from '../menu.ts';
import type { UpdateOffer } from '../updater/update-policy.ts';

export interface ShellMenuOptions {
  appName: string;
  dataDir: string;
  dev: boolean;
  openSettings(): void;
  /** A downloaded update ("Restart to Update"); the menu is installed again when it changes. */
  update?: UpdateOffer | null;
  restartToUpdate?(): void;
  log(message: string, error?: unknown): void;
}

export function installShellMenu(options: ShellMenuOptions): void {
  const openFolder = (dir: string): void => {
    void mkdir(dir, { recursive: true })
      .then(() => shell.openPath(dir))
      .catch((error: unknown) => options.log('could not open a folder', error));
  };
  installAppMenu(
    { platform: process.platform, appName: options.appName, dev: options.dev, update: options.update ?? null },
    {
      openSettings: options.openSettings,
      restartToUpdate: options.restartToUpdate,
      openDataFolder: () => openFolder(options.dataDir),
      openLogsFolder: () => openFolder(logsDir(options.dataDir)),
    },
  );
}
