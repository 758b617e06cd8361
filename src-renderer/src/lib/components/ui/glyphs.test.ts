// The first screen's glyphs are Lucide's icons, unchanged: each is compared with the icon of the
// same name in the installed @lucide/svelte (its iconData, written out as SVG children).
import { describe, expect, it } from 'vitest';
import * as glyphs from './glyphs.ts';

/** The installed package's icon components, as text (read when asked for). */
const LUCIDE_ICONS = import.meta.glob<string>('../../../../../node_modules/@lucide/svelte/dist/icons/*.svelte', {
  query: '?raw',
  import: 'default',
});

type IconNode = [string, Record<string, string | number>][];

async function lucideMarkup(name: string): Promise<string> {
  const load = LUCIDE_ICONS[`../../../../../node_modules/@lucide/svelte/dist/icons/${name}.svelte`];
  if (!load) throw new Error(`@lucide/svelte has no icon ${name}`);
  const source = await load();
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

  it.each(all.map((glyph) => [glyph.name, glyph] as const))('%s is drawn as Lucide draws it', async (_name, glyph) => {
    expect(glyph.markup).toBe(await lucideMarkup(glyph.name));
  });

  it.each(all.map((glyph) => [glyph.name, glyph] as const))('%s is drawn as elements of its markup', (_name, glyph) => {
    const written = glyphs
      .glyphShapes(glyph)
      .map(
        ({ tag, attributes }) =>
          `<${tag} ${Object.entries(attributes)
            .map(([key, value]) => `${key}="${value}"`)
            .join(' ')}/>`,
      )
      .join('');
    expect(written).toBe(glyph.markup);
  });
});
