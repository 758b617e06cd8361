// The experiment matrix (issue 33): one prompt across 3 models × 2 aspect ratios in the demo, every
// cell filled, a winner starred and two results selected for Compare, at 1920×1080 and 1024×640,
// light and dark, written to docs/screens/ (or ATELIER_SCREENS_DIR) as palette PNGs. Run by
// `npm run docs:screens`, outside the test run.
import { shootDocsScreens } from './docs-shots.ts';
import { AppShellPage } from '../pages/app-shell-page.ts';
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { invokeInPage } from '../pages/contract-client.ts';
import { ExperimentsPage } from '../pages/experiments-page.ts';

const NAME = 'Lighthouse across models';

test('screens of an experiment matrix', async ({ page, demoApp }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await shell.goTo('experiments');
  await invokeInPage(page, 'experiments:start', {
    base: { kind: 'image', body: { modelID: 'imagea', prompt: 'a white lighthouse on a cliff at dusk, oil painting' } },
    axes: [
      { kind: 'model', values: ['imagea', 'imageb', 'imagec-2'] },
      { kind: 'aspectRatio', values: ['16:9', '1:1', '9:16'] },
    ],
    name: NAME,
  });
  const view = new ExperimentsPage(page);
  await view.openExperiment(NAME);
  await expect(view.outputs).toHaveCount(9, { timeout: 120_000 });
  // Every picture drawn before the shot.
  await expect
    .poll(() =>
      view.outputs
        .locator('img')
        .evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length),
    )
    .toBe(9);
  await view.outputs
    .nth(1)
    .getByRole('button', { name: /^Favourite / })
    .click();
  await view.outputs.nth(1).getByRole('checkbox').check();
  await view.outputs.nth(4).getByRole('checkbox').check();
  await page.mouse.move(0, 0);
  await shootDocsScreens(page, 'experiment-matrix');
});
