// The renderer's media menu as an Electron menu template: separators, checkboxes, one level of
// submenus; choosing an entry hands its id back. Kept apart from Menu so it is testable in Node.
import type { MenuItemConstructorOptions } from 'electron';
import type { NativeMenuItemInfo } from '../contract/ipc/shell.ts';

/** "&" marks a mnemonic in Windows and Linux menus; a literal one is written twice. */
const literal = (label: string | undefined): string => (label ?? '').replaceAll('&', '&&');

export function nativeMenuTemplate(
  items: readonly NativeMenuItemInfo[],
  choose: (id: string) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.separator) return { type: 'separator' };
    if (item.submenu) {
      return {
        label: literal(item.label),
        enabled: item.enabled !== false,
        submenu: nativeMenuTemplate(item.submenu, choose),
      };
    }
    const id = item.id;
    return {
      label: literal(item.label),
      enabled: item.enabled !== false && id !== undefined,
      ...(item.checked === undefined ? {} : { type: 'checkbox' as const, checked: item.checked }),
      click: () => {
        if (id !== undefined) choose(id);
      },
    };
  });
}
