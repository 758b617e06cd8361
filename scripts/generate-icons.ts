// `node scripts/generate-icons.ts`: draws Atelier's mark (an easel that is also an "A") as SVG
// and renders the app icon and tray images with sharp. The PNGs are committed; rerun after
// changing the drawing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

const resources = resolve(import.meta.dirname, '..', 'resources');

/** The glyph on a 1024 grid: two easel legs meeting at the top, the canvas ledge, a rear leg; a paint dot beside it. */
function glyph(color: string, weight: number): string {
  return `
    <g fill="none" stroke="${color}" stroke-width="${weight}" stroke-linecap="round" stroke-linejoin="round">
      <path d="M512 196 L290 828" />
      <path d="M512 196 L734 828" />
      <path d="M512 330 L512 864" stroke-opacity="0.45" />
      <path d="M336 612 L688 612" />
    </g>`;
}

const appIcon = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#2b2d42"/>
      <stop offset="1" stop-color="#16171f"/>
    </linearGradient>
    <linearGradient id="accent" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f2b880"/>
      <stop offset="1" stop-color="#e07a5f"/>
    </linearGradient>
  </defs>
  <rect x="64" y="64" width="896" height="896" rx="208" fill="url(#bg)"/>
  <circle cx="742" cy="300" r="66" fill="url(#accent)"/>
  ${glyph('#f4f1ea', 64)}
</svg>`;

/** Tray images are drawn on the full square with a heavier stroke so they stay legible at 16 px. */
const trayGlyph = (
  color: string,
) => `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="96 120 832 832">
  <circle cx="768" cy="300" r="84" fill="${color}"/>
  ${glyph(color, 104)}
</svg>`;

async function render(svg: string, size: number, file: string): Promise<void> {
  const png = await sharp(Buffer.from(svg), { density: 72 * (size / 1024) * 4 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
  writeFileSync(join(resources, file), png);
}

mkdirSync(join(resources, 'tray'), { recursive: true });
writeFileSync(join(resources, 'icon.svg'), appIcon);
await render(appIcon, 1024, 'icon.png');
await render(appIcon, 512, 'icon-512.png');
await render(appIcon, 256, 'icon-256.png');
// macOS template images: black with alpha; the menu bar recolours them.
await render(trayGlyph('#000000'), 16, 'tray/trayTemplate.png');
await render(trayGlyph('#000000'), 32, 'tray/trayTemplate@2x.png');
// Windows and Linux: the warm accent reads on light and dark panels alike.
await render(trayGlyph('#e07a5f'), 32, 'tray/tray.png');
await render(trayGlyph('#e07a5f'), 64, 'tray/tray@2x.png');
console.log(`icons written to ${resources}`);
