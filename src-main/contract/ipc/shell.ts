// Channels between the renderer and the desktop shell: folders, links, the tray's queue counts
// and notification clicks. In browser mode the invoke channels answer 'unsupported'.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';

/** What the tray shows; emitted by the job engine whenever either number changes. */
export interface QueueCountsInfo {
  queued: number;
  running: number;
  /**
   * Models training now (the watcher's), counted with the running jobs where a count is shown.
   * Always sent by the engine; optional for the shell's own callers (the tray and keep-awake follow
   * jobs only: a training is checked every few minutes and needs no awake machine).
   */
  training?: number;
}

/** A notification was clicked: the renderer shows this asset (or, without one, this job). */
export interface OpenAssetInfo {
  assetId?: string;
  jobId?: string;
}

/** A native menu item the renderer carries out (e.g. Settings… / Cmd+,). */
export interface ShellCommandInfo {
  command: 'open-settings';
}

/** The folder the user chose in the system's folder dialog; null when they cancelled it. */
export interface PickedFolderInfo {
  path: string | null;
}

/** One entry of a native context menu (desktop app): an item, a checkbox, a separator, or a submenu. */
export interface NativeMenuItemInfo {
  /** Handed back when the entry is chosen; absent on separators and submenu headers. */
  id?: string | undefined;
  label?: string | undefined;
  enabled?: boolean | undefined;
  checked?: boolean | undefined;
  separator?: boolean | undefined;
  submenu?: NativeMenuItemInfo[] | undefined;
}

/** What the user chose in a native menu: the entry's id, or null when it closed without a choice. */
export interface NativeMenuChoiceInfo {
  id: string | null;
}

const text = (name: string, max: number) =>
  v.pipe(v.string(`${name} must be text.`), v.nonEmpty(`${name} is empty.`), v.maxLength(max, `${name} is too long.`));

const menuLeaf = v.strictObject({
  id: v.optional(v.pipe(v.string('A menu id must be text.'), v.maxLength(200, 'A menu id is too long.'))),
  label: v.optional(v.pipe(v.string('A menu label must be text.'), v.maxLength(200, 'A menu label is too long.'))),
  enabled: v.optional(v.boolean('enabled must be true or false.')),
  checked: v.optional(v.boolean('checked must be true or false.')),
  separator: v.optional(v.boolean('separator must be true or false.')),
});
/** Two levels at most (an entry and its submenu): what the app's menus need, and a bound on the work. */
const menuItem = v.strictObject({
  ...menuLeaf.entries,
  submenu: v.optional(
    v.pipe(v.array(menuLeaf, 'A submenu must be a list.'), v.maxLength(60, 'The submenu has too many entries.')),
  ),
});

export const shellInvoke = {
  'shell:open-data-folder': invoke(v.undefined(), type<null>()),
  'shell:open-logs-folder': invoke(v.undefined(), type<null>()),
  /** https links only; anything else is refused with 'invalid_argument'. */
  'shell:open-external': invoke(v.strictObject({ url: text('The link', 2048) }), type<null>()),
  /** A file of the library (library-relative, or absolute inside the library folder). */
  'shell:show-item-in-folder': invoke(v.strictObject({ path: text('The file path', 4096) }), type<null>()),
  /** Opens a library file with the system's default app (same path rules as show-item-in-folder). */
  'shell:open-item': invoke(v.strictObject({ path: text('The file path', 4096) }), type<null>()),
  /** Puts a library image on the system clipboard as an image (desktop app only; same path rules). */
  'shell:copy-image': invoke(v.strictObject({ path: text('The file path', 4096) }), type<null>()),
  /** Starts dragging a library file out of the window as a file, to the desktop or another app (desktop app only). */
  'shell:start-drag': invoke(v.strictObject({ path: text('The file path', 4096) }), type<null>()),
  /** A native context menu at the pointer (desktop app only); the renderer carries out the chosen entry. */
  'shell:context-menu': invoke(
    v.strictObject({
      items: v.pipe(v.array(menuItem, 'The menu must be a list.'), v.maxLength(60, 'The menu has too many entries.')),
    }),
    type<NativeMenuChoiceInfo>(),
  ),
  /** The system's folder dialog (desktop app only), for moving the library, exporting or importing ratings. */
  'shell:pick-folder': invoke(
    v.strictObject({
      purpose: v.picklist(
        ['library-move', 'export', 'import-marks'],
        'purpose must be library-move, export or import-marks.',
      ),
    }),
    type<PickedFolderInfo>(),
  ),
};

export const shellEvents = {
  'queue:counts': type<QueueCountsInfo>(),
  'shell:open-asset': type<OpenAssetInfo>(),
  'shell:command': type<ShellCommandInfo>(),
};
