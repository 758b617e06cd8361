// The keys that work from anywhere in the frame (each declared in shortcut-table.ts): Esc takes back
// a submission still held before sending, `/` goes to the Library's search, `?` opens the shortcut
// sheet, Ctrl/⌘+1…8 open a view and put the focus in it. Keys typed into a field stay the field's,
// and a dialog keeps its own keys.
import { NAV_ITEMS } from '../components/frame/nav-items.ts';
import { queue } from '../state/queue.svelte.ts';
import { router } from '../state/router.svelte.ts';
import { toasts } from '../state/toasts.svelte.ts';
import { isMacPlatform } from './shortcut-table.ts';
import { shortcutSheet } from './sheet.svelte.ts';
import { focusView } from './view-focus.ts';

const typing = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement &&
      !['checkbox', 'radio', 'button', 'submit', 'reset', 'range'].includes(target.type)));

const inDialog = (target: EventTarget | null): boolean =>
  target instanceof Element && target.closest('dialog, [role="dialog"], [role="menu"]') !== null;

/** Cancels the newest submission not sent yet; false when none is held. */
export function cancelHeldSend(): boolean {
  const newest = queue.pending.at(-1);
  if (!newest || !queue.cancel(newest.id)) return false;
  toasts.info('Cancelled: nothing was sent.');
  return true;
}

/** Opens the Library and puts the focus in its search field. */
function focusSearch(): void {
  router.go('library');
  const until = performance.now() + 5_000;
  const attempt = () => {
    const field = document.querySelector<HTMLInputElement>('#main [data-testid="view-library"] input[type="search"]');
    if (field) {
      field.focus();
      field.select();
    } else if (performance.now() < until) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

export function listenForGlobalKeys(): () => void {
  const mac = isMacPlatform(navigator.platform);
  const onKey = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing) return;
    const mod = mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
    if (mod && !event.altKey && !event.shiftKey) {
      const item = NAV_ITEMS[Number(event.key) - 1];
      if (!item) return;
      event.preventDefault();
      router.go(item.view);
      focusView(item.view);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    // Esc takes back a held submission from anywhere but a dialog (whose Esc closes it), even from a field.
    if (event.key === 'Escape') {
      if (queue.pending.length > 0 && !inDialog(event.target) && cancelHeldSend()) event.preventDefault();
      return;
    }
    if (typing(event.target) || inDialog(event.target) || document.querySelector('dialog[open]')) return;
    if (event.key === '/') {
      event.preventDefault();
      focusSearch();
    } else if (event.key === '?') {
      event.preventDefault();
      shortcutSheet.open = true;
    }
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
