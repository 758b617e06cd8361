// Shows the renderer's media menu as a native context menu at the pointer in the app's window and
// answers with the chosen entry's id, or null when it closed without a choice.
import { Menu, type BrowserWindow } from 'electron';
import type { NativeMenuItemInfo } from '../contract/ipc/shell.ts';
import { nativeMenuTemplate } from './native-menu-template.ts';

export function popupNativeMenu(window: BrowserWindow | null, items: NativeMenuItemInfo[]): Promise<string | null> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (id: string | null): void => {
      if (settled) return;
      settled = true;
      resolve(id);
    };
    const menu = Menu.buildFromTemplate(nativeMenuTemplate(items, settle));
    menu.popup({
      ...(window && !window.isDestroyed() ? { window } : {}),
      // On some platforms the menu reports closing before the chosen item's click: let a click win.
      callback: () => void setTimeout(() => settle(null), 50),
    });
  });
}
