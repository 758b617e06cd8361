// A paid action in flight shows and is sent once: Upscale pressed twice quickly in the viewer sends
// one upscale (counted in the core's job list); its button says it is upscaling and waits; the
// "started" notice is above the modal viewer (the topmost element where it is drawn) and read out.
// The upscale is named after its source everywhere ("Upscale of “a heron at dawn”": Create, Jobs,
// the queue), and once done the viewer links the source to the real library item.
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { JobsPage } from './pages/jobs-page.ts';
import { LibraryPage } from './pages/library-page.ts';

const PROMPT = 'a heron at dawn';
const NAME = `Upscale of “${PROMPT}”`;

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  app = await demoAppWith(browser, [{ kind: 'image', body: { modelID: 'imagea', prompt: PROMPT } }], { offline: 1 });
});

test.afterAll(async () => {
  await app?.stop();
});

interface JobLike {
  localId: number;
  kind: string;
  state: string;
  sourceImageId: string | null;
  outputs: { id: string }[];
}

const upscalesOf = async (page: Page, imageId: string): Promise<JobLike[]> =>
  (await invokeInPage<JobLike[]>(page, 'jobs:list', { limit: 200 })).filter(
    (job) => job.kind === 'upscale' && job.sourceImageId === imageId,
  );

/** Whether the element drawn at the centre of `selector`'s box is that element or inside it. */
const topmostAtCentre = (page: Page, testid: string, text: string): Promise<boolean> =>
  page.evaluate(
    ({ testid, text }) => {
      const toast = [...document.querySelectorAll(`[data-testid="${testid}"]`)].find((el) =>
        el.textContent?.includes(text),
      );
      if (!toast) return false;
      const box = toast.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && toast.contains(hit);
    },
    { testid, text },
  );

test('Upscale pressed twice quickly sends one upscale; the button says so; the notice is on top of the viewer', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto(app.url);
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.open();
  await expect(library.tiles).toHaveCount(1);
  const source = (await library.tiles.first().getAttribute('data-asset-id')) ?? '';
  expect(await upscalesOf(page, source)).toEqual([]);

  await library.tiles.first().dblclick();
  await expect(view.root).toHaveAttribute('data-asset-id', source);
  const upscale = view.action('upscale');
  await expect(upscale).toBeEnabled();
  await expect(upscale).toHaveText('Upscale');
  // Two presses as fast as a double click.
  await upscale.click({ clickCount: 2 });

  // The button says it is in flight and waits; the notice names the upscale and sits above the viewer.
  await expect(upscale).toHaveText(/Sending upscale…|Upscale queued|Upscaling…/);
  await expect(upscale).toBeDisabled();
  await expect(upscale).toHaveAttribute('title', /not sent twice/);
  const started = page.getByTestId('toast').filter({ hasText: `${NAME} started` });
  await expect(started).toBeVisible();
  expect(await topmostAtCentre(page, 'toast', `${NAME} started`)).toBe(true);
  // It is in a live region, so a screen reader says it.
  await expect(page.locator('[aria-live="polite"]').filter({ has: started })).toHaveCount(1);
  // The notice can be dismissed with the viewer open (it is not inert behind the modal).
  await started.getByRole('button', { name: 'Dismiss' }).click();
  await expect(started).toHaveCount(0);
  await expect(view.root).toBeVisible();

  // A third press from the keyboard while it runs sends nothing either.
  await upscale.focus();
  await page.keyboard.press('Enter');

  // One upscale in the core's job list, followed to its end.
  await expect
    .poll(async () => (await upscalesOf(page, source)).map((job) => job.state), { timeout: 60_000 })
    .toEqual(['succeeded']);

  // Done: the source links to the real library item (never "not in the library"), and a new press
  // is a deliberate "Upscale again".
  await expect(upscale).toHaveText('Upscale again');
  await expect(upscale).toBeEnabled();
  const [job] = await upscalesOf(page, source);
  const made = job?.outputs[0]?.id ?? '';
  // By name, never by id (issue 31): the upscale is named after its source's prompt.
  await expect(view.upscaledVersion()).toContainText('a heron at dawn');
  await expect(view.upscaledVersion()).not.toContainText(made);
  await expect(view.upscaledVersion()).not.toContainText('not in the library');
  await expect(view.upscaledVersion().locator('img')).toHaveCount(1, { timeout: 30_000 });
  await view.upscaledVersion().getByRole('button').click();
  await expect(view.root).toHaveAttribute('data-asset-id', made);
  await expect(view.upscaledFrom()).toContainText('a heron at dawn');
  await expect(view.upscaledFrom()).not.toContainText(source);
  await page.keyboard.press('Escape');
  expect((await upscalesOf(page, source)).length).toBe(1);

  // Named after its source in Jobs and in Create's results (no "No prompt", no model name as its title).
  const jobs = new JobsPage(page);
  await jobs.open();
  await expect(jobs.rows.filter({ hasText: NAME })).toHaveCount(1);
  await page.getByTestId('nav-create-image').click();
  const result = page.getByTestId('result-job').filter({ has: page.getByTestId('result-job-title') });
  await expect(page.getByTestId('result-job-title').filter({ hasText: NAME })).toHaveCount(1);
  await expect(result.filter({ hasText: 'No prompt' })).toHaveCount(0);
});

test('an error over a dialog over the viewer is the topmost element too, and said at once', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.open();
  await library.tiles.first().dblclick();
  await expect(view.root).toBeVisible();
  await view.action('export').click();
  await expect(library.exportDialog).toBeVisible();
  // A folder that cannot exist (under a file): the export fails and its dialog stays open.
  await library.exportFolder.fill('/etc/passwd/atelier-export');
  await page.keyboard.press('Enter');
  const error = page.locator('[data-testid="toast"][data-level="error"]');
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(library.exportDialog).toBeVisible();
  expect(
    await page.evaluate(() => {
      const toast = document.querySelector('[data-testid="toast"][data-level="error"]');
      if (!toast) return false;
      const box = toast.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && toast.contains(hit);
    }),
  ).toBe(true);
  // Closing the dialog keeps the notice in view, now above the viewer.
  await page.keyboard.press('Escape');
  await expect(library.exportDialog).toHaveCount(0);
  await expect(view.root).toBeVisible();
  await expect(error).toBeVisible();
  expect(await topmostAtCentre(page, 'toast', '')).toBe(true);
});
