import { describe, expect, it } from 'vitest';
import { cullKeyAction } from './cull-keys.ts';

const press = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('the cull keys', () => {
  it('rate, clear, pick, reject and unflag as in the Library', () => {
    expect(cullKeyAction(press('4'), false)).toEqual({ kind: 'mark', change: { rating: 4 } });
    expect(cullKeyAction(press('0'), false)).toEqual({ kind: 'mark', change: { rating: 0 } });
    expect(cullKeyAction(press('p'), false)).toEqual({ kind: 'mark', change: { flag: 'pick' } });
    expect(cullKeyAction(press('X', { shiftKey: true }), false)).toEqual({ kind: 'mark', change: { flag: 'reject' } });
    expect(cullKeyAction(press('u'), false)).toEqual({ kind: 'mark', change: { flag: null } });
    expect(cullKeyAction(press('6'), false)).toBeNull();
  });

  it('undo is Ctrl+Z, or ⌘Z on macOS; a plain Z or a Ctrl+P is nothing of the cull', () => {
    expect(cullKeyAction(press('z', { ctrlKey: true }), false)).toEqual({ kind: 'undo' });
    expect(cullKeyAction(press('z', { metaKey: true }), true)).toEqual({ kind: 'undo' });
    expect(cullKeyAction(press('z', { ctrlKey: true }), true)).toBeNull();
    expect(cullKeyAction(press('z'), false)).toBeNull();
    expect(cullKeyAction(press('p', { ctrlKey: true }), false)).toBeNull();
    expect(cullKeyAction(press('x', { altKey: true }), false)).toBeNull();
  });

  it('steps, jumps to the ends, switches the layout and auto-advance, opens the review', () => {
    expect(cullKeyAction(press('ArrowLeft'), false)).toEqual({ kind: 'step', delta: -1 });
    expect(cullKeyAction(press('ArrowRight'), false)).toEqual({ kind: 'step', delta: 1 });
    expect(cullKeyAction(press('End'), false)).toEqual({ kind: 'edge', to: 'last' });
    expect(cullKeyAction(press('n'), false)).toEqual({ kind: 'layout' });
    expect(cullKeyAction(press('a'), false)).toEqual({ kind: 'auto-advance' });
    expect(cullKeyAction(press('r'), false)).toEqual({ kind: 'review' });
    expect(cullKeyAction(press('Escape'), false)).toBeNull();
  });
});
