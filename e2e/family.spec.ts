// The family tree in the viewer (issue 32 item 4), from a user's seat: a result is upscaled with the
// tree's "Upscale this" and animated with "Animate this" (Create video with it as the first frame);
// the upscale and the video then appear as its children, named, and clicking one opens it, whose own
// tree names the result as its parent.
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { CreateVideoPage } from './pages/create-video-page.ts';
import { LibraryPage } from './pages/library-page.ts';

const PROMPT = 'a paper lantern over a dark pond';
const VIDEO_PROMPT = 'the lantern drifts across the pond';

let app: RunningApp;
let imageId = '';

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  // One result to build a family on, and one stranger that is no relative of it.
  app = await demoAppWith(browser, [
    { kind: 'image', body: { modelID: 'imagea', prompt: PROMPT } },
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a copper kettle on a stove' } },
  ]);
  const page = await browser.newPage();
  await page.goto(app.url);
  const { items } = await invokeInPage<{ items: { id: string; prompt: string | null }[] }>(page, 'assets:list', {
    filter: { kind: 'image', query: 'paper lantern' },
  });
  imageId = items.find((item) => item.prompt === PROMPT)?.id ?? '';
  expect(imageId).not.toBe('');
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
});

async function openInViewer(page: Page, id: string): Promise<AssetViewPage> {
  const library = new LibraryPage(page);
  await library.open();
  const view = new AssetViewPage(page);
  await library.tile(id).dispatchEvent('dblclick');
  await expect(view.root).toHaveAttribute('data-asset-id', id);
  if ((await view.panel.getAttribute('hidden')) !== null) await view.root.getByTestId('asset-details-toggle').click();
  return view;
}

test('an upscale of a result and a video made from it as first frame are its children; a click opens one', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(app.url);
  let view = await openInViewer(page, imageId);
  const family = view.root.getByRole('region', { name: 'Family' });
  await expect(family).toBeVisible();
  // Nothing made from it yet; the branch actions are on the asset itself.
  await expect(family.getByTestId('family-none')).toBeVisible();

  // "Upscale this": the viewer's own upscale; the upscale shows up under "Upscales" once made.
  await family.getByRole('button', { name: 'Upscale this' }).click();
  const upscales = family.getByRole('list', { name: 'Upscales' });
  const upscaleNode = upscales.getByRole('button', { name: `Upscale of “${PROMPT}”` });
  await expect(upscaleNode).toBeVisible({ timeout: 60_000 });

  // "Animate this": Create video with it as the first frame.
  await family.getByRole('button', { name: 'Animate this' }).click();
  const form = new CreateVideoPage(page);
  await expect(form.root).toBeVisible();
  await expect(form.listItems('referenceImages')).toHaveCount(1);
  await expect(form.listItems('referenceImages').first().getByTestId('reference-role')).toHaveValue('first_frame');
  await form.prompt.fill(VIDEO_PROMPT);
  await form.generate.click();
  await expect(form.root.getByTestId('result-job').first()).toContainText(VIDEO_PROMPT);
  await expect
    .poll(
      async () =>
        (
          await invokeInPage<{ items: { prompt: string | null }[] }>(page, 'assets:list', {
            filter: { kind: 'video', query: 'lantern drifts' },
          })
        ).items.length,
      { timeout: 90_000 },
    )
    .toBe(1);

  // Back in the viewer: both are its children, each named, in its own group.
  view = await openInViewer(page, imageId);
  const tree = view.root.getByRole('region', { name: 'Family' });
  const children = tree.getByRole('group', { name: 'Made from it' });
  await expect(children.getByRole('list', { name: 'Upscales' }).getByRole('button')).toHaveText([
    `Upscale of “${PROMPT}”`,
  ]);
  const videos = children.getByRole('list', { name: 'Videos made from it' });
  await expect(videos.getByRole('button', { name: new RegExp(VIDEO_PROMPT) })).toBeVisible();

  // A click (or Enter) on a node opens it; its own tree names the result as its parent.
  const upscaleButton = children.getByRole('button', { name: `Upscale of “${PROMPT}”` });
  const upscaleId = await upscaleButton.getAttribute('data-asset-id');
  expect(upscaleId).toMatch(/\S/);
  await upscaleButton.click();
  await expect(view.root).toHaveAttribute('data-asset-id', upscaleId ?? '');
  const upscaleTree = view.root.getByRole('region', { name: 'Family' });
  await expect(
    upscaleTree.getByRole('list', { name: 'Upscaled from' }).getByRole('button', { name: PROMPT, exact: true }),
  ).toBeVisible();
  await upscaleTree
    .getByRole('list', { name: 'Upscaled from' })
    .getByRole('button', { name: PROMPT, exact: true })
    .focus();
  await page.keyboard.press('Enter');
  await expect(view.root).toHaveAttribute('data-asset-id', imageId);
  const videoButton = view.root
    .getByRole('region', { name: 'Family' })
    .getByRole('list', { name: 'Videos made from it' })
    .getByRole('button', { name: new RegExp(VIDEO_PROMPT) });
  const videoId = await videoButton.getAttribute('data-asset-id');
  await videoButton.click();
  await expect(view.root).toHaveAttribute('data-asset-id', videoId ?? '');
  await expect(view.root).toHaveAttribute('aria-label', `Asset: ${VIDEO_PROMPT}`);
  await expect(
    view.root
      .getByRole('region', { name: 'Family' })
      .getByRole('list', { name: 'First frame' })
      .getByRole('button', { name: PROMPT, exact: true }),
  ).toBeVisible();

  // The Library: "Show the whole family" of the result (its menu) shows it with its upscale and its
  // video, under a removable chip that names it.
  await view.close.click();
  const library = new LibraryPage(page);
  await library.tile(imageId).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Show the whole family' }).click();
  const chip = page.getByTestId('filter-family');
  await expect(chip).toHaveAccessibleName(`Family of “${PROMPT}”: remove this filter`);
  await expect(library.tiles).toHaveCount(3);
  for (const id of [imageId, upscaleId ?? '', videoId ?? '']) await expect(library.tile(id)).toBeVisible();
  await chip.click();
  await expect(chip).toHaveCount(0);
  await expect(library.tiles).toHaveCount(4);
});
