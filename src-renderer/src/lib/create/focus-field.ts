// Moving focus to the field a problem is about: its wrapper is `data-testid="field-<name>"`, named
// after the last plain part of the request path ('options.imagec.outputCompression' → outputCompression,
// 'referenceImages[2].role' → referenceImages).
import { FOCUSABLE } from '../focus.ts';

export function fieldNameOf(path: string): string {
  const plain = path.replace(/\[\d+\].*$/, '');
  return plain.split('.').pop() ?? plain;
}

/** Focuses the control of the field at `path` inside `root`; false when it has none on screen. */
export function focusField(root: ParentNode, path: string): boolean {
  const name = fieldNameOf(path);
  const field = root.querySelector(`[data-testid="field-${CSS.escape(name)}"]`);
  // A radio group's tab stop is its chosen radio (the others are tabindex -1).
  const control = field?.querySelector<HTMLElement>(FOCUSABLE);
  if (!control) return false;
  control.focus();
  control.scrollIntoView({ block: 'nearest' });
  return true;
}
