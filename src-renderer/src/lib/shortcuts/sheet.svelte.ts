// Whether the shortcut sheet (`?`) is open: one flag, shown by components/frame/ShortcutSheet.svelte.
class ShortcutSheetState {
  open = $state(false);
}

export const shortcutSheet = new ShortcutSheetState();
