// `node scripts/generate-icons.ts`: draws Atelier's mark (an easel that is also an "A") as SVG
// and renders, with sharp, every icon the installers and the tray use. The files are committed;
// rerun after changing the drawing.
//   resources/icon.png         1024 px, the master (and Linux's fallback)
//   resources/icon.icns        macOS (electron-builder.yml mac.icon): PNG chunks 128 to 1024 px
//   resources/icon.ico         Windows exe and NSIS installer (win.icon): 16 to 256 px
//   resources/icons/NxN.png    Linux AppImage and deb (linux.icon): 16 to 512 px
//   resources/tray/…           tray images (macOS template images, and the coloured ones)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { ICNS_PNG_TYPES, icnsFile, icoFile, type IcoEntry } from './icon-containers.ts';

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

async function png(svg: string, size: number): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: 72 * (size / 1024) * 4 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

async function render(svg: string, size: number, file: string): Promise<void> {
  writeFileSync(join(resources, file), await png(svg, size));
}

async function rgba(svg: string, size: number): Promise<Buffer> {
  return sharp(await png(svg, size))
    .ensureAlpha()
    .raw()
    .toBuffer();
}

mkdirSync(join(resources, 'tray'), { recursive: true });
writeFileSync(join(resources, 'icon.svg'), appIcon);
await render(appIcon, 1024, 'icon.png');

// Linux: one PNG per size in a folder, named as electron-builder expects (NxN.png).
rmSync(join(resources, 'icons'), { recursive: true, force: true });
mkdirSync(join(resources, 'icons'));
for (const size of [16, 24, 32, 48, 64, 128, 256, 512]) await render(appIcon, size, `icons/${size}x${size}.png`);

// Windows: BMP entries up to 128 px, PNG at 256 px.
const ico: IcoEntry[] = [];
for (const size of [16, 24, 32, 48, 64, 128]) ico.push({ kind: 'bmp', size, rgba: await rgba(appIcon, size) });
ico.push({ size: 256, png: await png(appIcon, 256) });
writeFileSync(join(resources, 'icon.ico'), icoFile(ico));

// macOS: PNG chunks for every size Finder and the Dock ask for, 1x and 2x.
const icns: { type: string; png: Buffer }[] = [];
for (const { type, pixels } of ICNS_PNG_TYPES) icns.push({ type, png: await png(appIcon, pixels) });
writeFileSync(join(resources, 'icon.icns'), icnsFile(icns));

// macOS template images: black with alpha; the menu bar recolours them.
await render(trayGlyph('#000000'), 16, 'tray/trayTemplate.png');
await render(trayGlyph('#000000'), 32, 'tray/trayTemplate@2x.png');
// Windows and Linux: the warm accent reads on light and dark panels alike.
await render(trayGlyph('#e07a5f'), 32, 'tray/tray.png');
await render(trayGlyph('#e07a5f'), 64, 'tray/tray@2x.png');
console.log(`icons written to ${resources}`);
