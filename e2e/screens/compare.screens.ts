// Compare that explains: two results side by side with each one's prompt and settings under it, the
// differences marked, at 1920×1080 and 1024×640, light and dark, written to docs/screens/ (or
// ATELIER_SCREENS_DIR) as palette PNGs. Run by `npm run docs:screens`, outside the test run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { repoRoot } from '../fixtures/browser-mode.ts';
import { AppShellPage } from '../pages/app-shell-page.ts';
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { generateAndWait, invokeInPage } from '../pages/contract-client.ts';
import { LibraryPage } from '../pages/library-page.ts';

const DIR = process.env['ATELIER_SCREENS_DIR'] ?? join(repoRoot, 'docs', 'screens');
const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1024, height: 640 },
] as const;
const MAX_BYTES = 300 * 1024;

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(250);
      let png = Buffer.alloc(0);
      for (const colours of [256, 128, 64]) {
        png = await sharp(await page.screenshot())
          .png({ palette: true, colours, effort: 8 })
          .toBuffer();
        if (png.length < MAX_BYTES) break;
      }
      expect(png.length, `${name} ${size.width}×${size.height} ${scheme}`).toBeLessThan(MAX_BYTES);
      writeFileSync(join(DIR, `${name}-${size.width}x${size.height}-${scheme}.png`), png);
    }
  }
  await page.emulateMedia({ colorScheme: null });
}

test('screens of compare with its prompts and settings', async ({ page, demoApp }) => {
  test.setTimeout(180_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await generateAndWait(page, [
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a lighthouse on a cliff, at dawn, oil painting' } },
    {
      kind: 'image',
      body: {
        modelID: 'imagec-2',
        prompt: 'a white lighthouse on a cliff at dusk, oil painting, stormy sky',
        aspectRatio: '16:9',
        options: { imagec: { quality: 'high' } },
      },
    },
  ]);
  const { items } = await invokeInPage<{ items: { id: string; prompt: string | null }[] }>(page, 'assets:list', {});
  const first = items.find((item) => item.prompt?.startsWith('a lighthouse'));
  const second = items.find((item) => item.prompt?.startsWith('a white lighthouse'));
  await page.setViewportSize(SIZES[0]);
  const library = new LibraryPage(page);
  await shell.goTo('library');
  await library.search.fill('lighthouse cliff');
  await expect(library.tiles).toHaveCount(2, { timeout: 30_000 });
  await library.tile(first?.id ?? '').click();
  await library.tile(second?.id ?? '').click({ modifiers: ['Control'] });
  await page.getByTestId('bulk-compare').click();
  const compare = page.getByRole('dialog', { name: 'Compare 2 items' });
  await compare.getByTestId('compare-mode-side').click();
  await expect(
    compare.getByRole('region', { name: 'Right: prompt and settings' }).getByRole('insertion').first(),
  ).toBeVisible();
  await expect
    .poll(
      () =>
        compare
          .getByTestId('compare-image')
          .evaluateAll((imgs) =>
            imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
          ),
      { timeout: 30_000 },
    )
    .toBe(true);
  await shoot(page, 'compare-diff');
});
