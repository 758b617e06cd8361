// Screens of the culling view, the loupe, the survey and Review rejects, at 1024×640 and 1920×1080, light and dark, for
// the docs: written to docs/screens/ (or ATELIER_SCREENS_DIR) as palette PNGs small enough to commit.
// Run by `npm run docs:screens`, outside the test run.
import type { Page } from '@playwright/test';
import { shootDocsScreens } from './docs-shots.ts';
import { AppShellPage } from '../pages/app-shell-page.ts';
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { generateAndWait } from '../pages/contract-client.ts';
import { LibraryPage } from '../pages/library-page.ts';

const shoot = (page: Page, name: string) => shootDocsScreens(page, name);

test('screens of the culling view: loupe, survey and review', async ({ page, demoApp }) => {
  test.setTimeout(180_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await generateAndWait(
    page,
    [
      {
        kind: 'image',
        body: { modelID: 'imagea', prompt: 'a harbour at blue hour, boats and lanterns', numImages: 4 },
      },
      { kind: 'image', body: { modelID: 'imageb', prompt: 'a mountain lake, wide view', aspectRatio: '16:9' } },
      { kind: 'image', body: { modelID: 'imageb', prompt: 'a tall pine in fog', aspectRatio: '9:16' } },
    ],
    90_000,
  );
  await shell.goTo('library');
  const library = new LibraryPage(page);
  await library.search.fill('harbour');
  await expect(library.tiles).toHaveCount(4);
  await library.search.fill('');
  await page.getByRole('button', { name: 'Cull all…' }).click();
  const view = page.getByRole('dialog', { name: /^Cull/ });
  await expect(view).toBeVisible();
  // A few marks, so the progress line and the badges say something.
  for (const key of ['4', 'p', 'ArrowRight', 'x', 'ArrowRight', '5', 'p', 'ArrowRight', 'ArrowRight']) {
    await page.keyboard.press(key);
  }
  await expect(view.getByTestId('cull-progress')).toContainText('2 picks · 1 reject');
  await shoot(page, 'cull-loupe');
  await page.keyboard.press('n');
  await expect(view.getByTestId('cull-pane').first()).toBeVisible();
  await shoot(page, 'cull-survey');
  await page.keyboard.press('r');
  await expect(view.getByTestId('cull-review-item')).toHaveCount(1);
  await shoot(page, 'cull-review');
});
