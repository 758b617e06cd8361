// The two messages the shell itself shows: the one-time "keeps running in the tray" the first
// time closing hides the window, and "your settings file was set aside" after a start that met
// an unreadable settings.json (said once: the bad file is no longer where it is read).
import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import type { Settings } from '../../core/settings/settings.ts';

const show = (parent: BrowserWindow | null, options: MessageBoxOptions) =>
  parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options);

export async function explainCloseToTray(appName: string, settings: Settings, quit: () => void): Promise<void> {
  settings.update({ closeToTrayExplained: true });
  const { response } = await show(null, {
    type: 'info',
    title: appName,
    message: `${appName} keeps running in the tray`,
    detail: `Queued jobs keep finishing and downloading while the window is closed. Open ${appName} again from its tray icon; quit from the tray menu. You can change this in Settings.`,
    buttons: ['Keep Running', 'Quit Now'],
    defaultId: 0,
    cancelId: 0,
  });
  if (response === 1) {
    settings.update({ closeToTray: false });
    quit();
  }
}

export function tellSettingsSetAside(appName: string, movedTo: string, parent: BrowserWindow | null): void {
  void show(parent, {
    type: 'warning',
    title: appName,
    message: 'Your settings could not be read, so the defaults are used',
    detail: `The settings file was damaged and has been kept as ${movedTo}. Your library and jobs are not affected. If you had saved an API key, add it again in Settings.`,
    buttons: ['OK'],
  });
}
