// The native application menu as data, per platform: macOS gets the app menu and Window menu
// its users expect, Windows and Linux a File menu with Settings and Quit. Pure; menu.ts builds it.
// A downloaded update adds "Restart to Update" (macOS: the app menu; elsewhere: Help).
import type { MenuItemConstructorOptions } from 'electron';
import type { UpdateOffer } from './updater/update-policy.ts';

export interface MenuActions {
  openSettings(): void;
  openDataFolder(): void;
  openLogsFolder(): void;
  /** "Restart to Update": the updater restarts now, or once the work in flight is done. */
  restartToUpdate?(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Reload and developer tools only in development builds. */
  dev: boolean;
  /** A downloaded update to offer (updater/update-policy.ts updateOffer); absent or null: none. */
  update?: UpdateOffer | null;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

export function buildMenuTemplate(options: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const settings: MenuItemConstructorOptions = {
    label: mac ? 'Settings…' : '&Settings…',
    accelerator: 'CmdOrCtrl+,',
    click: () => actions.openSettings(),
  };

  const update: MenuItemConstructorOptions[] = options.update
    ? [
        {
          id: 'restart-to-update',
          label: options.update.label,
          enabled: options.update.enabled,
          click: () => actions.restartToUpdate?.(),
        },
      ]
    : [];

  const appMenu: MenuItemConstructorOptions = {
    label: options.appName,
    submenu: [
      { role: 'about' },
      ...update,
      separator,
      settings,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };

  const fileMenu: MenuItemConstructorOptions = {
    label: mac ? 'File' : '&File',
    submenu: mac
      ? [{ role: 'close' }]
      : [
          settings,
          separator,
          // Windows: Alt+F4 belongs to the window (it closes it, to the tray when there is one);
          // Exit has no shortcut there (nor by its role's default), as in other Windows apps.
          options.platform === 'win32'
            ? { role: 'quit', label: 'E&xit' }
            : { role: 'quit', label: 'E&xit', accelerator: 'CmdOrCtrl+Q' },
        ],
  };

  const editMenu: MenuItemConstructorOptions = {
    label: mac ? 'Edit' : '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  };

  const viewMenu: MenuItemConstructorOptions = {
    label: mac ? 'View' : '&View',
    submenu: [
      ...(options.dev ? [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, separator] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };

  const windowMenu: MenuItemConstructorOptions = {
    label: mac ? 'Window' : '&Window',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  };

  const helpMenu: MenuItemConstructorOptions = {
    label: mac ? 'Help' : '&Help',
    role: 'help',
    submenu: [
      { label: 'Open Logs Folder', click: () => actions.openLogsFolder() },
      { label: 'Open Data Folder', click: () => actions.openDataFolder() },
      ...(mac ? [] : [separator, ...update, { role: 'about', label: `About ${options.appName}` } as const]),
    ],
  };

  return [...(mac ? [appMenu] : []), fileMenu, editMenu, viewMenu, windowMenu, helpMenu];
}
