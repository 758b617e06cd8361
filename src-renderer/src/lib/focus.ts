// Where the keyboard's focus may go, written once for every modal (ui/Dialog, the asset view, compare),
// the menus and the Create form's "go to the field" links.

/** What Tab stops on: enabled controls, links, native-controlled media and anything given a tab stop. */
export const FOCUSABLE = [
  'button:not(:disabled):not([tabindex="-1"])',
  'a[href]:not([tabindex="-1"])',
  'input:not(:disabled):not([type="hidden"]):not([tabindex="-1"])',
  'select:not(:disabled):not([tabindex="-1"])',
  'textarea:not(:disabled):not([tabindex="-1"])',
  'video[controls]:not([tabindex="-1"])',
  'summary:not([tabindex="-1"])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

/** Shown: not display:none (itself or an ancestor, e.g. a closed details panel) nor visibility:hidden. */
const shown = (el: HTMLElement): boolean =>
  typeof el.checkVisibility === 'function'
    ? el.checkVisibility({ visibilityProperty: true })
    : el.getClientRects().length > 0;

/**
 * The tab stops inside `root`, in document order: shown ones only, and none inside another modal
 * opened over it (a confirmation dialog inside the asset view keeps its own).
 */
export function tabStops(root: HTMLElement): HTMLElement[] {
  const layer = root.closest('dialog');
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.closest('dialog') === layer && shown(el));
}

/**
 * Keeps Tab and Shift+Tab inside `root` (a modal's keydown): from the last stop Tab goes to the first,
 * from the first (or the modal itself) Shift+Tab goes to the last. True when it moved the focus.
 */
export function keepTabInside(root: HTMLElement, event: KeyboardEvent): boolean {
  if (event.key !== 'Tab' || event.ctrlKey || event.metaKey || event.altKey) return false;
  const stops = tabStops(root);
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) {
    // Nothing to stop on: the focus stays on the modal rather than leaving it.
    event.preventDefault();
    return true;
  }
  const at = document.activeElement;
  const outside = !(at instanceof Node) || !root.contains(at);
  if (event.shiftKey && (at === first || at === root || outside)) {
    event.preventDefault();
    last.focus();
    return true;
  }
  if (!event.shiftKey && (at === last || outside)) {
    event.preventDefault();
    first.focus();
    return true;
  }
  return false;
}

/**
 * Opens `dialog` as a modal and returns its closing: closed, the focus goes back where it was
 * before it opened (if that element is still in the page).
 */
export function openModal(dialog: HTMLDialogElement): () => void {
  const restore = focusReturn();
  if (!dialog.open) dialog.showModal();
  return () => {
    dialog.close();
    restore();
  };
}

/** Remembers the focused element now; the returned call gives the focus back to it, if it is still in the page. */
export function focusReturn(): () => void {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return () => {
    if (previous?.isConnected) previous.focus({ preventScroll: true });
  };
}
