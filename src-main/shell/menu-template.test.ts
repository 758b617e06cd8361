import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { buildMenuTemplate, type MenuActions } from './menu-template.ts';

function recorder() {
  const calls: string[] = [];
  const actions: MenuActions = {
    openSettings: () => calls.push('settings'),
    openDataFolder: () => calls.push('data'),
    openLogsFolder: () => calls.push('logs'),
    restartToUpdate: () => calls.push('restart'),
  };
  return { calls, actions };
}

const items = (menu: MenuItemConstructorOptions | undefined): MenuItemConstructorOptions[] =>
  (menu?.submenu as MenuItemConstructorOptions[] | undefined) ?? [];
const labels = (template: MenuItemConstructorOptions[]) => template.map((m) => m.label ?? m.role);
const find = (template: MenuItemConstructorOptions[], label: string) =>
  template.find((m) => m.label?.replace('&', '') === label);
const click = (item: MenuItemConstructorOptions | undefined) => (item?.click as (() => void) | undefined)?.();

describe('application menu', () => {
  it('gives macOS the app menu first, with About, Settings (Cmd+,), Hide and Quit', () => {
    const { actions, calls } = recorder();
    const template = buildMenuTemplate({ platform: 'darwin', appName: 'Atelier', dev: false }, actions);
    expect(labels(template)).toEqual(['Atelier', 'File', 'Edit', 'View', 'Window', 'Help']);
    const appMenu = items(template[0]);
    expect(appMenu.map((m) => m.role ?? m.label ?? m.type)).toEqual([
      'about',
      'separator',
      'Settings…',
      'separator',
      'services',
      'separator',
      'hide',
      'hideOthers',
      'unhide',
      'separator',
      'quit',
    ]);
    const settings = appMenu.find((m) => m.label === 'Settings…');
    expect(settings?.accelerator).toBe('CmdOrCtrl+,');
    click(settings);
    expect(calls).toEqual(['settings']);
    expect(items(find(template, 'Window')).map((m) => m.role ?? m.type)).toEqual([
      'minimize',
      'zoom',
      'separator',
      'front',
    ]);
  });

  it('gives Windows and Linux a File menu with Settings and Exit, and no app menu', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const template = buildMenuTemplate({ platform, appName: 'Atelier', dev: false }, recorder().actions);
      expect(labels(template)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
      const file = items(template[0]);
      expect(file[0]?.label).toBe('&Settings…');
      const quit = file.find((m) => m.role === 'quit');
      // Alt+F4 must reach the window (close, to the tray) instead of quitting the app.
      expect(quit?.accelerator).toBe(platform === 'win32' ? undefined : 'CmdOrCtrl+Q');
      const accelerators = template.flatMap((menu) => items(menu).map((m) => m.accelerator));
      expect(accelerators).not.toContain('Alt+F4');
      expect(items(find(template, 'Help')).some((m) => m.role === 'about')).toBe(true);
    }
  });

  it('has the standard Edit roles so copy and paste work in text fields', () => {
    const template = buildMenuTemplate({ platform: 'linux', appName: 'Atelier', dev: false }, recorder().actions);
    const roles = items(find(template, 'Edit'))
      .map((m) => m.role)
      .filter(Boolean);
    expect(roles).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'delete', 'selectAll']);
  });

  it('opens the logs and data folders from Help', () => {
    const { actions, calls } = recorder();
    const help = items(
      find(buildMenuTemplate({ platform: 'darwin', appName: 'Atelier', dev: false }, actions), 'Help'),
    );
    click(help.find((m) => m.label === 'Open Logs Folder'));
    click(help.find((m) => m.label === 'Open Data Folder'));
    expect(calls).toEqual(['logs', 'data']);
  });

  it('shows reload and developer tools only in development builds', () => {
    const roles = (dev: boolean) =>
      items(find(buildMenuTemplate({ platform: 'linux', appName: 'Atelier', dev }, recorder().actions), 'View')).map(
        (m) => m.role,
      );
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
    expect(roles(false)).toEqual(expect.arrayContaining(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']));
  });

  it('offers a downloaded update: macOS in the app menu after About, elsewhere in Help before About', () => {
    const ready = { version: '1.2.0', label: 'Restart to Update', enabled: true };
    const { actions, calls } = recorder();
    const mac = buildMenuTemplate({ platform: 'darwin', appName: 'Atelier', dev: false, update: ready }, actions);
    const appMenu = items(mac[0]);
    expect(appMenu.slice(0, 3).map((m) => m.role ?? m.label ?? m.type)).toEqual([
      'about',
      'Restart to Update',
      'separator',
    ]);
    click(appMenu[1]);
    expect(calls).toEqual(['restart']);
    expect(items(find(mac, 'Help')).some((m) => m.id === 'restart-to-update')).toBe(false);

    for (const platform of ['win32', 'linux'] as const) {
      const template = buildMenuTemplate({ platform, appName: 'Atelier', dev: false, update: ready }, actions);
      const help = items(find(template, 'Help'));
      expect(help.slice(-2).map((m) => m.id ?? m.role)).toEqual(['restart-to-update', 'about']);
      expect(help.at(-2)?.enabled).toBe(true);
    }
  });

  it('shows a restart that waits for work in flight, disabled, with what it waits for', () => {
    const waiting = { version: '1.2.0', label: 'Update Waits for 2 uploads…', enabled: false };
    const template = buildMenuTemplate(
      { platform: 'linux', appName: 'Atelier', dev: false, update: waiting },
      recorder().actions,
    );
    const item = items(find(template, 'Help')).find((m) => m.id === 'restart-to-update');
    expect(item).toMatchObject({ label: 'Update Waits for 2 uploads…', enabled: false });
  });

  it('offers nothing about updates until one is downloaded', () => {
    for (const update of [undefined, null]) {
      for (const platform of ['darwin', 'win32', 'linux'] as const) {
        const template = buildMenuTemplate({ platform, appName: 'Atelier', dev: false, update }, recorder().actions);
        const all = template.flatMap(items);
        expect(all.some((m) => m.id === 'restart-to-update' || /update/i.test(m.label ?? ''))).toBe(false);
      }
    }
  });
});
