// "Try the demo" opens onto a library in use: within five seconds of the click the Library shows a full
// first screen of real thumbnails out of about 200 results, with favourites, two collections and the
// trained models' uploads kept apart.
import { expect, test } from './fixtures/page-errors.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

let app: RunningApp;

test.beforeAll(async () => {
  app = await startBrowserModeApp([], { ATELIER_DEMO_LIBRARY: 'full' });
});

test.afterAll(async () => {
  await app?.stop();
});

test('the demo shows a full library within 5 s of "Try the demo"', async ({ page }) => {
  await page.goto(app.url);
  const welcome = new FirstRunPage(page);
  await expect(welcome.chooseDemo).toBeVisible();
  const library = new LibraryPage(page);

  const started = Date.now();
  await welcome.chooseDemo.click();
  // The first screen after the click is the Library itself.
  await library.root.waitFor();
  /** Tiles in view whose thumbnail has loaded. */
  const withPictures = () =>
    library.tiles.evaluateAll(
      (tiles) =>
        tiles.filter((tile) => {
          const img = tile.querySelector('img');
          const box = tile.getBoundingClientRect();
          return img && img.complete && img.naturalWidth > 0 && box.top < window.innerHeight && box.bottom > 0;
        }).length,
    );
  await expect.poll(withPictures, { timeout: 5000, intervals: [100] }).toBeGreaterThanOrEqual(16);
  const elapsed = Date.now() - started;
  expect(elapsed).toBeLessThan(5000);

  const total = Number((await library.total.textContent())?.replace(/\D/g, ''));
  expect(total).toBeGreaterThanOrEqual(180);
  await expect(library.place('favorites')).not.toContainText(/^\s*Favourites\s*0\s*$/);
  await expect(library.collection('Coastlines')).toBeVisible();
  await expect(library.collection('Product shots')).toBeVisible();
  await expect(library.place('uploads')).toContainText('26');
  test.info().annotations.push({ type: 'first screen', description: `${elapsed} ms from Try the demo` });
});

test('screenshots of the lived-in library: a collection, the context menu, uploads', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(app.url);
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
