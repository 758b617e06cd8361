// Pictures of the viewer's details (names and media facts) and of Jobs at 1920×1080, light and dark,
// for the docs (`npm run docs:screens`, outside the test run).
import { AppShellPage } from '../pages/app-shell-page.ts';
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { AssetViewPage } from '../pages/asset-view-page.ts';
import { LibraryPage } from '../pages/library-page.ts';
import { screenshotBothSchemes } from '../pages/screenshots.ts';

test('the viewer details and Jobs, by name, at 1920×1080', async ({ page, demoApp }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await shell.goTo('create-image');
  await page.getByLabel('Prompt', { exact: true }).fill('a lighthouse in a storm, oil painting');
  await page.getByTestId('generate').click();
  await shell.goTo('jobs');
  await expect(page.getByTestId('job-row').first()).toBeVisible();
  await screenshotBothSchemes(page, 'names-jobs-1920x1080');

  await shell.goTo('library');
  const library = new LibraryPage(page);
  await library.search.fill('lighthouse storm');
  const tile = library.tiles.first();
  await expect(tile).toBeVisible({ timeout: 60_000 });
  await tile.click();
  await page.keyboard.press('Enter');
  const view = new AssetViewPage(page);
  await expect(view.panel).toBeVisible();
  await expect(view.panel).toContainText('1024 × 1024', { timeout: 60_000 });
  await screenshotBothSchemes(page, 'names-viewer-details-1920x1080');
});
