// The Create canvas is for looking: a job's results are one even grid sized to the canvas (four
// squares as four equal large tiles; one tall result nearly the canvas's height), each with its
// actions (open, vary, upscale, favourite, copy) reachable by keyboard.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { expect, serviceTest as test } from './fixtures/service-account.ts';
import { CreateImagePage } from './pages/create-image-page.ts';

/** With ATELIER_SCREENS_DIR set (docs/screens for the README), the canvas is drawn there as palette PNGs. */
const SCREENS = process.env['ATELIER_SCREENS_DIR'];

async function shootCanvas(page: Page, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const size of [
    { width: 1920, height: 1080 },
    { width: 1024, height: 640 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      const png = await sharp(await page.screenshot())
        .png({ palette: true, quality: 90, effort: 8 })
        .toBuffer();
      writeFileSync(join(dir, `create-image-results-${size.width}x${size.height}-${scheme}.png`), png);
    }
  }
  await page.emulateMedia({ colorScheme: null });
  await page.setViewportSize({ width: 1920, height: 1080 });
}

test.use({ viewport: { width: 1920, height: 1080 } });

test('a 4-image 1:1 job shows four equal large tiles; a single 9:16 result is tall', async ({ page, signIn }) => {
  test.setTimeout(90_000);
  await signIn();
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();
  await form.chooseModel('imagea');
  await form.prompt.fill('four square tiles of glazed clay');
  await form.pickSegment('aspectRatio', '1:1');
  await form.pickSegment('numImages', '4');
  await form.generate.click();

  const four = form.root.getByTestId('result-job').filter({ hasText: 'four square tiles' });
  // While it is made: four tiles of the asked shape, with their state and time so far.
  await expect(four.getByTestId('result-pending').or(four.getByTestId('result-open'))).toHaveCount(4);
  await expect(four).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  const tiles = four.getByTestId('result-open');
  await expect(tiles).toHaveCount(4);
  const boxes = await tiles.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
  for (const box of boxes) {
    expect(box.width, 'each tile at least 300 px wide').toBeGreaterThanOrEqual(300);
    expect(Math.abs(box.width - boxes[0]!.width), 'tiles of one size').toBeLessThanOrEqual(1);
    expect(Math.abs(box.height - boxes[0]!.height), 'tiles of one size').toBeLessThanOrEqual(1);
    expect(Math.abs(box.width / box.height - 1), 'square tiles').toBeLessThan(0.02);
  }

  if (SCREENS) {
    for (const img of await four.getByTestId('result-image').all())
      await img.evaluate((el) => (el as HTMLImageElement).decode());
    await shootCanvas(page, SCREENS);
  }

  await form.prompt.fill('one tall cypress at noon');
  await form.pickSegment('aspectRatio', '9:16');
  await form.pickSegment('numImages', '1');
  await form.generate.click();
  const tall = form.root.getByTestId('result-job').filter({ hasText: 'one tall cypress' });
  await expect(tall).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  const box = await tall.getByTestId('result-open').boundingBox();
  expect(box?.height ?? 0, 'one 9:16 result at least 500 px tall').toBeGreaterThanOrEqual(500);
  expect(Math.abs((box?.width ?? 0) / (box?.height ?? 1) - 9 / 16)).toBeLessThan(0.02);

  // Each result's actions: by keyboard from the tile (itself the Open button), shown while focused,
  // named for the result.
  const open = tall.getByRole('button', { name: /^Open image 1 of/ });
  await open.focus();
  await expect(tall.getByTestId('result-actions')).toHaveCSS('opacity', '0');
  await page.keyboard.press('Tab');
  await expect(tall.getByRole('button', { name: /^Vary image 1 of/ })).toBeFocused();
  await expect(tall.getByTestId('result-actions')).toHaveCSS('opacity', '1');
  for (const name of [/^Upscale image 1/, /^Favourite image 1/, /^Copy image 1/])
    await expect(tall.getByRole('button', { name })).toBeVisible();
  const star = tall.getByRole('button', { name: /^Favourite image 1/ });
  await expect(star).toBeEnabled();
  await star.focus();
  await page.keyboard.press('Enter');
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('asset-view')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('asset-view')).toBeHidden();

  // The frame's first Tab stop is a skip link: to the results here, to the grid in the Library.
  const skip = page.getByRole('link', { name: 'Skip to the results' });
  await skip.focus();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result-open').first()).toBeFocused();
  await page.keyboard.press('Control+4');
  const toGrid = page.getByRole('link', { name: 'Skip to the grid' });
  await toGrid.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('asset-grid')).toBeFocused();
});
