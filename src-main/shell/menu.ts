// Installs the native application menu built by menu-template.ts.
import { Menu } from 'electron';
import { buildMenuTemplate, type MenuActions, type MenuOptions } from './menu-template.ts';

export function installAppMenu(options: MenuOptions, actions: MenuActions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate(options, actions)));
}
