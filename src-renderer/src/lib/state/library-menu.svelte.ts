// The one context menu of the app's media (Library tiles, Create results, the asset view): which
// entries it shows, where, and in which host (the viewer is a modal dialog, so it renders its own).
// Opened by right-click, Shift+F10 or the ContextMenu key; the menu itself is ContextMenu.svelte.
import { accountBound, accountScope } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { focusReturn } from '../focus.ts';
import { invoke } from '../ipc.ts';
import type { MenuAction, MenuEntry } from '../menus/menu-entries.ts';
import { toNativeMenu } from '../menus/native-menu.ts';
import { appInfo } from './app-info.svelte.ts';

export type { MenuAction, MenuEntry } from '../menus/menu-entries.ts';

export type MenuHost = 'page' | 'viewer';

export interface MenuPlacement {
  x: number;
  y: number;
}

class LibraryMenuState {
  entries = $state.raw<MenuEntry[]>([]);
  /** The list shown before a submenu opened (for "back"). */
  parent = $state.raw<{ entries: MenuEntry[]; label: string; index: number } | null>(null);
  title = $state('');
  at = $state<MenuPlacement>({ x: 0, y: 0 });
  host = $state<MenuHost | null>(null);
  /** Gives the focus back where it was when the menu opened. */
  #returnFocus: (() => void) | null = null;

  readonly isOpen = $derived(this.host !== null);

  constructor() {
    // A menu of the previous account's items closes with it.
    accountScope.bind({ reset: () => this.close(false) });
  }

  /** The desktop app shows a native menu (keyboard and screen readers as the OS does them); the browser, this one. */
  show(entries: MenuEntry[], at: MenuPlacement, options: { host?: MenuHost; title: string }): void {
    if (appInfo.info?.host === 'electron') void this.#showNative(entries, at, options);
    else this.#showInPage(entries, at, options);
  }

  async #showNative(entries: MenuEntry[], at: MenuPlacement, options: { host?: MenuHost; title: string }) {
    const menu = await toNativeMenu(entries);
    const chosen = await invoke('shell:context-menu', { items: menu.items });
    // A shell without native menus (or a refusal): the in-page menu instead.
    if (!chosen.ok) return this.#showInPage(entries, at, options);
    if (chosen.value.id !== null) menu.actions.get(chosen.value.id)?.();
  }

  #showInPage(entries: MenuEntry[], at: MenuPlacement, options: { host?: MenuHost; title: string }): void {
    this.#returnFocus = focusReturn();
    this.entries = entries;
    this.parent = null;
    this.title = options.title;
    this.at = at;
    this.host = options.host ?? 'page';
  }

  async openSubmenu(action: MenuAction, index: number): Promise<void> {
    if (!action.submenu) return;
    const entries = await action.submenu();
    this.parent = { entries: this.entries, label: action.label, index };
    this.entries = entries;
  }

  back(): number | null {
    const parent = this.parent;
    if (!parent) return null;
    this.entries = parent.entries;
    this.parent = null;
    return parent.index;
  }

  close(restoreFocus = true): void {
    if (this.host === null) return;
    this.host = null;
    this.entries = [];
    this.parent = null;
    const restore = this.#returnFocus;
    this.#returnFocus = null;
    if (restoreFocus) restore?.();
  }
}

export const libraryMenu = new LibraryMenuState();

/** What a menu asked to confirm or export (the dialogs live in LibraryMenus.svelte, one for every host). */
class PendingAssetWork {
  confirm = $state.raw<{ mode: 'local' | 'remote'; assets: AssetInfo[]; onDone?: () => void } | null>(null);
  exporting = $state.raw<AssetInfo[] | null>(null);
  collectionExport = $state.raw<{ id: number; name: string } | null>(null);
  /** A collection to delete, once confirmed; `onDone` runs after it is gone. */
  collectionDelete = $state.raw<{ id: number; name: string; onDone?: () => void } | null>(null);

  constructor() {
    accountBound<PendingAssetWork>(this, () => ({
      confirm: null,
      exporting: null,
      collectionExport: null,
      collectionDelete: null,
    }));
  }
}

export const pendingAssetWork = new PendingAssetWork();

/** Where a keyboard-opened menu goes: by the element (a tile, the shown media), not the pointer. */
export function placementOf(element: Element | null): MenuPlacement {
  const rect = element?.getBoundingClientRect();
  return rect
    ? { x: rect.left + Math.min(24, rect.width / 2), y: rect.top + Math.min(24, rect.height / 2) }
    : { x: 80, y: 80 };
}

/** Shift+F10 or the ContextMenu key. */
export const isMenuKey = (event: KeyboardEvent): boolean =>
  event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10');
