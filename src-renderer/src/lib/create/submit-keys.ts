// Which key presses in a Create form spend: only Ctrl/Cmd+Enter, from anywhere in the form but never
// from inside a dialog (a dialog owns its keys). A plain Enter in a one-line field must never submit.
import { keysOf } from '../shortcuts/shortcut-table.ts';

export { isMacPlatform } from '../shortcuts/shortcut-table.ts';

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
}

/** Ctrl+Enter, or Cmd+Enter on macOS: the one way to generate from the keyboard. */
export function isGenerateShortcut(event: KeyLike, mac: boolean): boolean {
  if (event.key !== 'Enter' || event.altKey || event.shiftKey || event.isComposing) return false;
  return mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
}

/** The shortcut as shown on the Generate button and in aria-keyshortcuts (from the shortcut table). */
export function generateShortcutText(mac: boolean): { shown: string; aria: string } {
  return keysOf('generate', mac);
}

const TYPES_WITHOUT_IMPLICIT_SUBMIT = new Set(['button', 'submit', 'reset', 'checkbox', 'radio', 'file', 'image']);

/**
 * A plain Enter on this element would submit the form implicitly (a one-line input does that by
 * default in every browser); those presses are stopped. Textareas and buttons keep their Enter.
 */
export function enterWouldSubmit(target: EventTarget | null): boolean {
  if (typeof HTMLInputElement === 'undefined' || !(target instanceof HTMLInputElement)) return false;
  return !TYPES_WITHOUT_IMPLICIT_SUBMIT.has(target.type);
}
