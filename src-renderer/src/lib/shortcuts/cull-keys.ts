// What a key does in the culling view, read from the 'Cull' rows of the shortcut table, so the sheet (`?`)
// and the buttons' hints show the keys that work.
import type { CullChange } from '../library/cull-session.svelte.ts';
import { SHORTCUTS } from './shortcut-table.ts';

export type CullKeyAction =
  | { kind: 'mark'; change: CullChange }
  | { kind: 'step'; delta: 1 | -1 }
  | { kind: 'edge'; to: 'first' | 'last' }
  | { kind: 'undo' }
  | { kind: 'layout' }
  | { kind: 'auto-advance' }
  | { kind: 'review' };

type KeyEventLike = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

/** Whether the event is this combination of the table ("Mod+Z", "P", "ArrowLeft", "3"). */
export function matchesCombo(combo: string, event: KeyEventLike, mac: boolean): boolean {
  const parts = combo.split('+');
  const key = parts.at(-1) ?? '';
  const mod = parts.includes('Mod');
  const shift = parts.includes('Shift');
  const modDown = mac ? event.metaKey : event.ctrlKey;
  const otherMod = mac ? event.ctrlKey : event.metaKey;
  if (mod !== modDown || otherMod || event.altKey) return false;
  // A letter or a digit is the same key with Shift (the table has no Shift+letter in the cull).
  if (key.length === 1) return event.key.toLowerCase() === key.toLowerCase() && (shift || !event.shiftKey || !mod);
  return event.key === key && shift === event.shiftKey;
}

function actionOf(id: string, event: KeyEventLike): CullKeyAction | null {
  switch (id) {
    case 'cull-rate':
      return { kind: 'mark', change: { rating: Number(event.key) } };
    case 'cull-clear-rating':
      return { kind: 'mark', change: { rating: 0 } };
    case 'cull-pick':
      return { kind: 'mark', change: { flag: 'pick' } };
    case 'cull-reject':
      return { kind: 'mark', change: { flag: 'reject' } };
    case 'cull-unflag':
      return { kind: 'mark', change: { flag: null } };
    case 'cull-step':
      return { kind: 'step', delta: event.key === 'ArrowLeft' ? -1 : 1 };
    case 'cull-edge':
      return { kind: 'edge', to: event.key === 'Home' ? 'first' : 'last' };
    case 'cull-undo':
      return { kind: 'undo' };
    case 'cull-layout':
      return { kind: 'layout' };
    case 'cull-auto-advance':
      return { kind: 'auto-advance' };
    case 'cull-review':
      return { kind: 'review' };
    default:
      // Escape is the dialog's own cancel.
      return null;
  }
}

/** The cull's action for a key, or null when the key is not one of the cull's. */
export function cullKeyAction(event: KeyEventLike, mac: boolean): CullKeyAction | null {
  for (const row of SHORTCUTS) {
    if (row.group !== 'Cull') continue;
    if (row.keys.some((combo) => matchesCombo(combo, event, mac))) return actionOf(row.id, event);
  }
  return null;
}
