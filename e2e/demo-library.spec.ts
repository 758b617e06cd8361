// "Try the demo" opens onto a library in use: within five seconds of the click the Library shows a full
// first screen of real thumbnails out of about 200 results, with favourites, two collections and the
// trained models' uploads kept apart.
import { expect, test } from './fixtures/page-errors.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { LibraryPage } from './pages/library-page.ts';

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
