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
  /**
   * The first screen: the tiles in view, how many show their loaded thumbnail, and whether they reach
   * the bottom of the view (a full screen, however the date sections split it: after midnight "Today"
   * may hold a single tile above "Yesterday").
   */
  const firstScreen = () =>
    library.tiles.evaluateAll((tiles) => {
      const inView = tiles.filter((tile) => {
        const box = tile.getBoundingClientRect();
        return box.top < window.innerHeight && box.bottom > 0;
      });
      const loaded = inView.filter((tile) => {
        const img = tile.querySelector('img');
        return img && img.complete && img.naturalWidth > 0;
      });
      const lowest = Math.max(0, ...inView.map((tile) => tile.getBoundingClientRect().bottom));
      return { inView: inView.length, loaded: loaded.length, full: lowest >= window.innerHeight };
    });
  // Every tile in view has its picture, at least eight of them, and they fill the view to its bottom.
  await expect
    .poll(
      async () => {
        const screen = await firstScreen();
        return screen.full && screen.inView >= 8 && screen.loaded === screen.inView;
      },
      { timeout: 5000, intervals: [100] },
    )
    .toBe(true);
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
