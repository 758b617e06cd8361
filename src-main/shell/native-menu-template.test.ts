import { describe, expect, it } from 'vitest';
import { nativeMenuTemplate } from './native-menu-template.ts';

describe('native context menu template', () => {
  it('maps items, checkboxes, separators and a submenu, and hands back the chosen id', () => {
    const chosen: string[] = [];
    const template = nativeMenuTemplate(
      [
        { id: 'open', label: 'Open' },
        { id: 'favorite', label: 'Favourite', checked: true },
        { separator: true },
        {
          label: 'Add to collection',
          submenu: [
            { id: 'c:1', label: 'Coast & sea' },
            { id: 'c:2', label: 'Shots', enabled: false },
          ],
        },
        { id: 'delete', label: 'Delete on the service…', enabled: false },
      ],
      (id) => void chosen.push(id),
    );
    expect(template.map((t) => t.type ?? 'normal')).toEqual(['normal', 'checkbox', 'separator', 'normal', 'normal']);
    expect(template[1]).toMatchObject({ checked: true, enabled: true });
    expect(template[4]).toMatchObject({ enabled: false });
    const sub = template[3]!.submenu as { label: string; enabled: boolean; click: () => void }[];
    expect(sub.map((s) => [s.label, s.enabled])).toEqual([
      ['Coast && sea', true],
      ['Shots', false],
    ]);
    (template[0] as { click: () => void }).click();
    sub[0]!.click();
    expect(chosen).toEqual(['open', 'c:1']);
  });

  it('an entry without an id cannot be chosen', () => {
    const chosen: string[] = [];
    const [item] = nativeMenuTemplate([{ label: 'Nothing' }], (id) => void chosen.push(id));
    expect(item).toMatchObject({ enabled: false });
    (item as { click: () => void }).click();
    expect(chosen).toEqual([]);
  });
});
