// The Library's date headers and jump list (issue 32 item 7) in light and dark, at 1920×1080 and
// 1024×640: run by `npm run docs:screens` (outside the test run), which copies them into docs/screens/.
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

test('screenshots of the library with date headers and the jump list', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(app.url);
  await new FirstRunPage(page).chooseDemo.click();
  const library = new LibraryPage(page);
  await library.open();
  const jumpList = page.getByRole('navigation', { name: 'Jump to date' });
  await expect(jumpList.getByRole('button').nth(1)).toBeVisible({ timeout: 60_000 });
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
        { timeout: 30_000, intervals: [500] },
      )
      .toBe(0)
      // A picture still loading on a busy machine does not stop the screenshot.
      .catch(() => undefined);
  };
  for (const [width, height] of [
    [1920, 1080],
    [1024, 640],
  ] as const) {
    await page.setViewportSize({ width, height });
    // The second section's header a little way down, the first one's name kept at the top.
    await jumpList.getByRole('button').nth(1).click();
    await library.grid.evaluate((el) => el.scrollBy({ top: -Math.round(el.clientHeight / 3) }));
    await settled();
    await page.mouse.move(width - 300, 10);
    await screenshotBothSchemes(page, `library-dates-${width}x${height}`);
  }
});
