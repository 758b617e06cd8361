// The pictures in docs/screens/ (or ATELIER_SCREENS_DIR): a view at each size, light and dark, as
// palette PNGs under 300 KB each (fewer colours until it fits). Used by the *.screens.ts files, which
// `npm run docs:screens` runs outside the test run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, type Page } from '@playwright/test';
import { repoRoot } from '../fixtures/browser-mode.ts';

export const SCREENS_DIR = process.env['ATELIER_SCREENS_DIR'] ?? join(repoRoot, 'docs', 'screens');
export const MAX_SCREEN_BYTES = 300 * 1024;

export type ScreenSize = { readonly width: number; readonly height: number };
export const LARGE_AND_SMALL: readonly ScreenSize[] = [
  { width: 1920, height: 1080 },
  { width: 1024, height: 640 },
];

/** Writes `<name>-<W>x<H>-<scheme>.png` for each size, light then dark; the viewport ends at the first size. */
export async function shootDocsScreens(
  page: Page,
  name: string,
  sizes: readonly ScreenSize[] = LARGE_AND_SMALL,
): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  for (const size of sizes) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Let transitions settle so the picture shows the final colours.
      await page.waitForTimeout(250);
      let png = Buffer.alloc(0);
      for (const colours of [256, 128, 64]) {
        png = await sharp(await page.screenshot())
          .png({ palette: true, colours, effort: 8 })
          .toBuffer();
        if (png.length < MAX_SCREEN_BYTES) break;
      }
      expect(png.length, `${name} ${size.width}×${size.height} ${scheme}`).toBeLessThan(MAX_SCREEN_BYTES);
      writeFileSync(join(SCREENS_DIR, `${name}-${size.width}x${size.height}-${scheme}.png`), png);
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (sizes[0]) await page.setViewportSize(sizes[0]);
}
