// The entries of the app's media menus, shown in the page or as a native menu (desktop app).
export interface MenuAction {
  id: string;
  label: string;
  /** Shown at the right (e.g. "F"). */
  shortcut?: string;
  /** Why it is not available now; the entry stays visible, disabled, with this as its title. */
  unavailable?: string | null;
  danger?: boolean;
  /** A toggle (menuitemcheckbox). */
  checked?: boolean;
  /** Opens a second list in place (←/Esc come back). */
  submenu?: () => Promise<MenuEntry[]> | MenuEntry[];
  run?: () => void;
}

export type MenuEntry = MenuAction | { separator: true };
