// The first screen's glyphs are Lucide's icons, unchanged: each is compared with the icon of the
// same name in the installed @lucide/svelte (its iconData, written out as SVG children).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as glyphs from './glyphs.ts';

const LUCIDE_ICONS = resolve(import.meta.dirname, '../../../../../node_modules/@lucide/svelte/dist/icons');

type IconNode = [string, Record<string, string | number>][];

function lucideMarkup(name: string): string {
  const source = readFileSync(resolve(LUCIDE_ICONS, `${name}.svelte`), 'utf8');
  const data = /const iconData = (\{.*\});/.exec(source)?.[1];
  if (!data) throw new Error(`no iconData in ${name}.svelte`);
  const node = (JSON.parse(data) as { node: IconNode }).node;
  return node
    .map(
      ([tag, attributes]) =>
        `<${tag} ${Object.entries(attributes)
          .map(([key, value]) => `${key}="${value}"`)
          .join(' ')}/>`,
    )
    .join('');
}

describe('glyphs', () => {
  const all = Object.values(glyphs).filter((value): value is glyphs.Glyph => typeof value === 'object');

  it('are there', () => {
    expect(all.length).toBeGreaterThan(10);
  });

  it.each(all.map((glyph) => [glyph.name, glyph] as const))('%s is drawn as Lucide draws it', (_name, glyph) => {
    expect(glyph.markup).toBe(lucideMarkup(glyph.name));
  });
});
