// The media menu's entries as a native menu (desktop app): plain items with ids for the shell, and
// what each id does here. Submenus are resolved first (a native menu cannot wait for them).
import type { NativeMenuItemInfo } from '@contract/ipc/shell.ts';
import type { MenuEntry } from './menu-entries.ts';

export interface NativeMenu {
  items: NativeMenuItemInfo[];
  actions: Map<string, () => void>;
}

export async function toNativeMenu(entries: readonly MenuEntry[]): Promise<NativeMenu> {
  const actions = new Map<string, () => void>();
  const convert = async (list: readonly MenuEntry[], prefix: string, depth: number): Promise<NativeMenuItemInfo[]> => {
    const items: NativeMenuItemInfo[] = [];
    for (const [index, entry] of list.entries()) {
      if ('separator' in entry) {
        items.push({ separator: true });
        continue;
      }
      const id = `${prefix}${index}`;
      const enabled = !entry.unavailable;
      if (entry.submenu) {
        // Two levels at most, as the shell accepts: a deeper list is offered disabled.
        const children = depth === 0 && enabled ? await convert(await entry.submenu(), `${id}.`, depth + 1) : [];
        items.push({ label: entry.label, enabled: enabled && children.length > 0, submenu: children });
        continue;
      }
      if (entry.run && enabled) actions.set(id, entry.run);
      items.push({
        id,
        label: entry.label,
        enabled: enabled && entry.run !== undefined,
        ...(entry.checked === undefined ? {} : { checked: entry.checked }),
      });
    }
    return items;
  };
  return { items: await convert(entries, '', 0), actions };
}
