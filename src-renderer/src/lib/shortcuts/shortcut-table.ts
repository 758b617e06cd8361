// Every keyboard shortcut of the app, declared once. The shortcut sheet (`?`) lists this table; the
// sidebar's tooltips, Generate's kbd hint and the viewer's buttons read their keys from it, so a key
// shown anywhere is the key that works. Keys are written platform-neutral: "Mod" is Ctrl, or ⌘ on macOS.
import { NAV_ITEMS } from '../components/frame/nav-items.ts';

export type ShortcutGroup = 'Everywhere' | 'Create' | 'Library' | 'Asset view' | 'Cull' | 'Experiments';

export interface Shortcut {
  id: string;
  group: ShortcutGroup;
  /** One or more key combinations, e.g. ['Mod+Enter'] or ['ArrowLeft', 'ArrowRight']. */
  keys: readonly string[];
  /** What it does, in the words of the screen. */
  does: string;
}

const nav: Shortcut[] = NAV_ITEMS.map((item, index) => ({
  id: `go-${item.view}`,
  group: 'Everywhere',
  keys: [`Mod+${index + 1}`],
  does: `Go to ${item.label}`,
}));

export const SHORTCUTS: readonly Shortcut[] = [
  ...nav,
  { id: 'search', group: 'Everywhere', keys: ['/'], does: 'Search the Library' },
  { id: 'shortcut-sheet', group: 'Everywhere', keys: ['?'], does: 'Show these shortcuts' },
  { id: 'cancel-send', group: 'Everywhere', keys: ['Escape'], does: 'Cancel a submission before it is sent (2 s)' },
  { id: 'generate', group: 'Create', keys: ['Mod+Enter'], does: 'Generate (a plain Enter never spends)' },
  {
    id: 'grid-move',
    group: 'Library',
    keys: ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'],
    does: 'Move in the grid',
  },
  { id: 'grid-open', group: 'Library', keys: ['Enter'], does: 'Open the asset' },
  { id: 'grid-select', group: 'Library', keys: ['Space'], does: 'Select or unselect' },
  { id: 'grid-select-all', group: 'Library', keys: ['Mod+A'], does: 'Select all' },
  { id: 'grid-clear', group: 'Library', keys: ['Escape'], does: 'Clear the selection' },
  { id: 'favorite', group: 'Library', keys: ['F'], does: 'Add to or remove from Favourites' },
  { id: 'collection', group: 'Library', keys: ['C'], does: 'Add to a collection' },
  { id: 'copy', group: 'Library', keys: ['Mod+C'], does: 'Copy the image' },
  { id: 'menu', group: 'Library', keys: ['Shift+F10'], does: 'Open the menu of the asset' },
  {
    id: 'mark-rate',
    group: 'Library',
    keys: ['1', '2', '3', '4', '5'],
    does: 'Rate 1 to 5 stars (grid, viewer, compare)',
  },
  { id: 'mark-clear-rating', group: 'Library', keys: ['0'], does: 'Clear the rating' },
  { id: 'mark-pick', group: 'Library', keys: ['P'], does: 'Pick' },
  { id: 'mark-reject', group: 'Library', keys: ['X'], does: 'Reject' },
  { id: 'mark-unflag', group: 'Library', keys: ['U'], does: 'Clear the pick or reject flag' },
  { id: 'viewer-step', group: 'Asset view', keys: ['ArrowLeft', 'ArrowRight'], does: 'Previous or next asset' },
  { id: 'viewer-details', group: 'Asset view', keys: ['I'], does: 'Show or hide the details' },
  { id: 'compare-notes', group: 'Asset view', keys: ['I'], does: 'Compare: show or hide the prompts and settings' },
  { id: 'viewer-favorite-video', group: 'Asset view', keys: ['Shift+F'], does: 'Favourite a video (F is full screen)' },
  { id: 'zoom-fit', group: 'Asset view', keys: ['Z'], does: 'Fit or 100 %' },
  { id: 'zoom-actual', group: 'Asset view', keys: ['Z'], does: 'Actual size (100 %): Z, since 0 clears the rating' },
  { id: 'zoom-step', group: 'Asset view', keys: ['+', '-'], does: 'Zoom in or out' },
  { id: 'fullscreen', group: 'Asset view', keys: ['F'], does: 'Full screen (videos)' },
  { id: 'play', group: 'Asset view', keys: ['Space', 'K'], does: 'Play or pause' },
  { id: 'mute', group: 'Asset view', keys: ['M'], does: 'Mute or unmute' },
  { id: 'seek', group: 'Asset view', keys: ['J', 'L'], does: 'Back or forward a few seconds' },
  { id: 'close', group: 'Asset view', keys: ['Escape'], does: 'Close' },
  { id: 'cull-rate', group: 'Cull', keys: ['1', '2', '3', '4', '5'], does: 'Rate 1 to 5 stars' },
  { id: 'cull-clear-rating', group: 'Cull', keys: ['0'], does: 'Clear the rating' },
  { id: 'cull-pick', group: 'Cull', keys: ['P'], does: 'Pick' },
  { id: 'cull-reject', group: 'Cull', keys: ['X'], does: 'Reject' },
  { id: 'cull-unflag', group: 'Cull', keys: ['U'], does: 'Unflag' },
  { id: 'cull-step', group: 'Cull', keys: ['ArrowLeft', 'ArrowRight'], does: 'Previous or next item' },
  { id: 'cull-edge', group: 'Cull', keys: ['Home', 'End'], does: 'First or last item' },
  { id: 'cull-layout', group: 'Cull', keys: ['N'], does: 'Loupe (one) or survey (side by side)' },
  { id: 'cull-auto-advance', group: 'Cull', keys: ['A'], does: 'Auto-advance after a flag, on or off' },
  { id: 'cull-undo', group: 'Cull', keys: ['Mod+Z'], does: 'Undo the last mark (back to its item)' },
  { id: 'cull-review', group: 'Cull', keys: ['R'], does: 'Review rejects' },
  { id: 'cull-close', group: 'Cull', keys: ['Escape'], does: 'Leave the cull (the marks are kept)' },
  { id: 'experiment-delete', group: 'Experiments', keys: ['Delete'], does: 'Delete the experiment (asks first)' },
];

export type ShortcutId = (typeof SHORTCUTS)[number]['id'];

export const isMacPlatform = (platform: string): boolean => platform.toLowerCase().includes('mac');

const SHOWN: Record<string, string> = {
  Enter: '↵',
  Escape: 'Esc',
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
};

export function shortcut(id: string): Shortcut {
  const found = SHORTCUTS.find((s) => s.id === id);
  if (!found) throw new Error(`No shortcut "${id}" in the shortcut table`);
  return found;
}

/** One combination as shown: "Ctrl+↵" / "⌘↵", "Shift+F10", "Esc". */
export function shownKey(combo: string, mac: boolean): string {
  const parts = combo.split('+').filter((p, i, all) => p !== '' || i === all.length - 1);
  const shown = parts.map((p) => (p === 'Mod' ? (mac ? '⌘' : 'Ctrl') : (SHOWN[p] ?? (p === '' ? '+' : p))));
  return mac && parts[0] === 'Mod' ? shown.join('') : shown.join('+');
}

/** One combination as aria-keyshortcuts wants it: "Control+Enter", "Meta+1", "Shift+F10". */
export function ariaKey(combo: string, mac: boolean): string {
  return combo
    .split('+')
    .map((p) => (p === 'Mod' ? (mac ? 'Meta' : 'Control') : p === 'Space' ? 'Space' : p))
    .join('+');
}

/** A shortcut's keys as shown and for aria-keyshortcuts (its combinations joined). */
export function keysOf(id: string, mac: boolean): { shown: string; aria: string } {
  const { keys } = shortcut(id);
  return { shown: keys.map((k) => shownKey(k, mac)).join(' / '), aria: keys.map((k) => ariaKey(k, mac)).join(' ') };
}
