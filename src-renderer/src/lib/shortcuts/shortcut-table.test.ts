import { describe, expect, it } from 'vitest';
import { NAV_ITEMS } from '../components/frame/nav-items.ts';
import { SHORTCUTS, ariaKey, keysOf, shownKey } from './shortcut-table.ts';

describe('the shortcut table', () => {
  it('names each shortcut once', () => {
    const ids = SHORTCUTS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('holds one Ctrl/⌘+digit per view of the sidebar, in its order', () => {
    NAV_ITEMS.forEach((item, index) => {
      expect(keysOf(`go-${item.view}`, false)).toEqual({ shown: `Ctrl+${index + 1}`, aria: `Control+${index + 1}` });
      expect(keysOf(`go-${item.view}`, true)).toEqual({ shown: `⌘${index + 1}`, aria: `Meta+${index + 1}` });
    });
  });

  it('shows keys in words of the keyboard and names them for aria-keyshortcuts', () => {
    expect(keysOf('generate', false)).toEqual({ shown: 'Ctrl+↵', aria: 'Control+Enter' });
    expect(keysOf('generate', true)).toEqual({ shown: '⌘↵', aria: 'Meta+Enter' });
    expect(shownKey('Escape', false)).toBe('Esc');
    expect(shownKey('+', false)).toBe('+');
    expect(shownKey('Shift+F10', true)).toBe('Shift+F10');
    expect(ariaKey('Shift+F10', false)).toBe('Shift+F10');
    expect(keysOf('zoom-step', false).shown).toBe('+ / -');
  });

  it('refuses an id it does not hold', () => {
    expect(() => keysOf('no-such-key', false)).toThrow(/No shortcut "no-such-key"/);
  });
});
