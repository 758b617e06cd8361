import { describe, expect, it } from 'vitest';
import { toNativeMenu } from './native-menu.ts';

describe('the media menu as a native menu', () => {
  it('gives each entry an id, resolves submenus, keeps disabled and checked, and maps ids back to actions', async () => {
    const ran: string[] = [];
    const { items, actions } = await toNativeMenu([
      { id: 'open', label: 'Open', run: () => void ran.push('open') },
      { id: 'fav', label: 'Favourite', checked: false, run: () => void ran.push('fav') },
      { separator: true },
      {
        id: 'collect',
        label: 'Add to collection',
        submenu: async () => [{ id: 'c1', label: 'Coast', run: () => void ran.push('c1') }],
      },
      { id: 'upscale', label: 'Upscale', unavailable: 'Offline', run: () => void ran.push('upscale') },
    ]);
    expect(items).toEqual([
      { id: '0', label: 'Open', enabled: true },
      { id: '1', label: 'Favourite', enabled: true, checked: false },
      { separator: true },
      { label: 'Add to collection', enabled: true, submenu: [{ id: '3.0', label: 'Coast', enabled: true }] },
      { id: '4', label: 'Upscale', enabled: false },
    ]);
    actions.get('3.0')?.();
    actions.get('0')?.();
    expect(actions.has('4')).toBe(false);
    expect(ran).toEqual(['c1', 'open']);
  });

  it('a submenu below a submenu is offered disabled (the shell takes two levels)', async () => {
    const { items } = await toNativeMenu([
      { id: 'a', label: 'A', submenu: () => [{ id: 'b', label: 'B', submenu: () => [{ id: 'c', label: 'C' }] }] },
    ]);
    expect(items).toEqual([{ label: 'A', enabled: true, submenu: [{ label: 'B', enabled: false, submenu: [] }] }]);
  });
});
