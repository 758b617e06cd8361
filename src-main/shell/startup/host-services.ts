// The Electron-backed host adapters handed to the core: notifications (clicks open
// the asset), power and online signals, one taskbar progress bar that also keeps the app from
// being suspended while transfers run, and the desktop actions (folders, links, folder picker).
import { dialog, Notification, powerSaveBlocker, shell, type BrowserWindow } from 'electron';
import type { HostServices } from '../../core/host/host-services.ts';
import type { Notifier, NotificationTarget } from '../../core/host/notifier.ts';
import { createPowerSignalHub, type PowerSignalHub } from '../../core/host/power-signals.ts';
import { withDemoBadge } from '../demo-badge.ts';
import { keepAwakeWhileBusy, type KeepAwake } from '../keep-awake.ts';
import { mediaOut } from '../media-out.ts';
import { popupNativeMenu } from '../native-menu.ts';
import { createOsNotifier } from '../os-notifier.ts';
import { createTaskbarProgress } from '../taskbar-progress.ts';

export interface ShellHostOptions {
  window(): BrowserWindow | null;
  openAsset(target: NotificationTarget): void;
  demoMode(): boolean;
  log(message: string, error?: unknown): void;
}

export interface ShellHost {
  services: HostServices;
  notifier: Notifier;
  powerHub: PowerSignalHub;
  keepAwake: KeepAwake;
  /** The last notification shown (the Electron e2e clicks it). */
  lastNotification(): Notification | null;
}

export function createShellHost(options: ShellHostOptions): ShellHost {
  let last: Notification | null = null;
  // Shown as they come: bursts are already batched by the core (host/notifier.ts's one policy).
  const notifier = createOsNotifier({
    isSupported: () => Notification.isSupported(),
    create: (notification) =>
      (last = new Notification({
        ...notification,
        title: withDemoBadge(notification.title, options.demoMode()),
        silent: false,
      })),
    onOpen: options.openAsset,
  });
  const powerHub = createPowerSignalHub({ onListenerError: (error) => options.log('power listener failed', error) });
  const keepAwake = keepAwakeWhileBusy(powerSaveBlocker);
  // One bar for the app; the engine adds concurrent transfers up with aggregateProgress (core/host).
  const taskbar = createTaskbarProgress(options.window);
  const openPath = async (path: string): Promise<void> => {
    const problem = await shell.openPath(path);
    if (problem) throw new Error(problem);
  };
  const services: HostServices = {
    notifier,
    power: powerHub,
    progress: {
      set(fraction) {
        taskbar.set(fraction);
        keepAwake.setTransfers(fraction !== null);
      },
    },
    desktop: {
      openFolder: openPath,
      showItemInFolder: (path) => shell.showItemInFolder(path),
      openItem: openPath,
      openExternal: (url) => shell.openExternal(url),
      pickFolder: async ({ title, buttonLabel, defaultPath }) => {
        const dialogOptions = {
          title,
          buttonLabel,
          defaultPath,
          properties: ['openDirectory', 'createDirectory', 'promptToCreate'] as (
            'openDirectory' | 'createDirectory' | 'promptToCreate'
          )[],
        };
        const parent = options.window();
        const picked = parent
          ? await dialog.showOpenDialog(parent, dialogOptions)
          : await dialog.showOpenDialog(dialogOptions);
        return picked.canceled ? null : (picked.filePaths[0] ?? null);
      },
      ...mediaOut(() => options.window()),
      popupMenu: (items) => popupNativeMenu(options.window(), items),
    },
  };
  return { services, notifier, powerHub, keepAwake, lastNotification: () => last };
}
