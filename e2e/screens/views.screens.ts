// Pictures of every view and the queue dock in light and dark, for people to look at
// (e2e-artifacts/screenshots/): run by `npm run docs:screens`, outside the test run.
import { AppShellPage, VIEW_NAMES } from '../pages/app-shell-page.ts';
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { screenshotBothSchemes } from '../pages/screenshots.ts';

test('screenshots of every view in light and dark', async ({ page, demoApp }) => {
  // Twelve full-page pictures; generous on a shared, busy machine.
  test.setTimeout(180_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  for (const view of VIEW_NAMES) {
    await shell.goTo(view);
    await expect(shell.view(view)).toBeVisible();
    await screenshotBothSchemes(page, `view-${view}`);
  }
  await shell.jobsInFlight.click();
  await screenshotBothSchemes(page, 'frame-queue-dock');
});
