import { describe, expect, it } from 'vitest';
import { generateShortcutText, isGenerateShortcut, isMacPlatform } from './submit-keys.ts';

const key = (over: Partial<Parameters<typeof isGenerateShortcut>[0]>) => ({
  key: 'Enter',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...over,
});

describe('the generate shortcut', () => {
  it('is Ctrl+Enter elsewhere and Cmd+Enter on macOS, nothing else', () => {
    expect(isGenerateShortcut(key({ ctrlKey: true }), false)).toBe(true);
    expect(isGenerateShortcut(key({ metaKey: true }), true)).toBe(true);
    expect(isGenerateShortcut(key({}), false)).toBe(false);
    expect(isGenerateShortcut(key({ metaKey: true }), false)).toBe(false);
    expect(isGenerateShortcut(key({ ctrlKey: true }), true)).toBe(false);
    expect(isGenerateShortcut(key({ ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(isGenerateShortcut(key({ ctrlKey: true, isComposing: true }), false)).toBe(false);
    expect(isGenerateShortcut(key({ key: 'a', ctrlKey: true }), false)).toBe(false);
  });

  it('is written for the platform', () => {
    expect(isMacPlatform('MacIntel')).toBe(true);
    expect(isMacPlatform('Linux x86_64')).toBe(false);
    expect(generateShortcutText(false)).toEqual({ shown: 'Ctrl+↵', aria: 'Control+Enter' });
    expect(generateShortcutText(true).aria).toBe('Meta+Enter');
  });
});
