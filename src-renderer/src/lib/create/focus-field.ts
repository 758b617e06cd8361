// Moving focus to the field a problem is about: its wrapper is `data-testid="field-<name>"`, named
// after the last plain part of the request path ('options.imagec.outputCompression' → outputCompression,
// 'referenceImages[2].role' → referenceImages).

export function fieldNameOf(path: string): string {
  const plain = path.replace(/\[\d+\].*$/, '');
  return plain.split('.').pop() ?? plain;
}

const FOCUSABLE = [
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'button[role="radio"][tabindex="0"]:not([disabled])',
  'button:not([disabled])',
].join(', ');

/** Focuses the control of the field at `path` inside `root`; false when it has none on screen. */
export function focusField(root: ParentNode, path: string): boolean {
  const name = fieldNameOf(path);
  const field = root.querySelector(`[data-testid="field-${CSS.escape(name)}"]`);
  const control = field?.querySelector<HTMLElement>(FOCUSABLE);
  if (!control) return false;
  control.focus();
  control.scrollIntoView({ block: 'nearest' });
  return true;
}
