// The lived-in demo library (a collection, the context menu, uploads) in light and dark, for the README:
// run by `npm run docs:screens` (outside the test run), which then copies them into docs/screens/
// (scripts/docs-screens.ts).
import { expect, test } from '../fixtures/page-errors.ts';
import { startBrowserModeApp, type RunningApp } from '../fixtures/browser-mode.ts';
import { FirstRunPage } from '../pages/first-run-page.ts';
import { LibraryPage } from '../pages/library-page.ts';
import { screenshotBothSchemes } from '../pages/screenshots.ts';

let app: RunningApp;

test.beforeAll(async () => {
  app = await startBrowserModeApp([], { ATELIER_DEMO_LIBRARY: 'full' });
});

test.afterAll(async () => {
  await app?.stop();
});

test('screenshots of the lived-in library: a collection, the context menu, uploads', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(app.url);
  // A fresh app opens on Welcome: the lived-in library is the demo's.
  await new FirstRunPage(page).chooseDemo.click();
  const library = new LibraryPage(page);
  await library.open();
  const settled = async () => {
    await expect
      .poll(
        () =>
          library.tiles.evaluateAll(
            (tiles) =>
              tiles.filter((tile) => {
                const box = tile.getBoundingClientRect();
                if (box.top >= window.innerHeight || box.bottom <= 0) return false;
                const img = tile.querySelector('img');
                return !img || !img.complete;
              }).length,
          ),
        { timeout: 60_000, intervals: [500] },
      )
      .toBe(0);
  };
  await library
    .collection('Coastlines')
    .getByRole('button', { name: /Coastlines/ })
    .first()
    .click();
  await expect(library.root.getByRole('heading', { name: 'Coastlines' })).toBeVisible();
  await settled();
  await page.mouse.move(700, 20);
  await screenshotBothSchemes(page, 'demo-library-collection');

  await library.place('results').click();
  await settled();
  await library.tiles.nth(2).click({ button: 'right', position: { x: 60, y: 60 } });
  await library.menuItem('Add to collection').hover();
  await expect(library.menu).toBeVisible();
  await screenshotBothSchemes(page, 'demo-library-menu');
  await page.keyboard.press('Escape');

  await library.place('uploads').click();
  await expect(page.getByTestId('uploads-group')).toHaveCount(2);
  await page.waitForTimeout(1000);
  await screenshotBothSchemes(page, 'demo-library-uploads');
});
