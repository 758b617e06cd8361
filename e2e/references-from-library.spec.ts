// References from the library: in Create video, library items dragged onto a role (first frame, last frame…)
// or pressed and given a role by keyboard; the model's rules refuse with their reason; the request sent
// carries each reference with its role. Create image's reference list takes drops too, and a Library tile
// held over Create video in the sidebar opens it to be dropped there.
import { expect, test, type Page } from './fixtures/page-errors.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { generateAndWait, invokeInPage } from './pages/contract-client.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { CreateVideoPage } from './pages/create-video-page.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

interface AssetLike {
  id: string;
  kind: string;
  url: string;
  prompt: string;
}

interface SentJob {
  prompt: string | null;
  request: { modelID?: string; referenceImages?: { url: string; role: string }[]; referenceImageURLs?: string[] };
}

let app: RunningApp;
/** The library's images, newest first (as the strip shows them). */
let images: AssetLike[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  app = await startBrowserModeApp(['--demo']);
  const page = await browser.newPage();
  await page.goto(app.url);
  await generateAndWait(page, [
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a red door in a white wall', numImages: 2 } },
    { kind: 'image', body: { modelID: 'imageb', prompt: 'a blue boat on a calm lake' } },
  ]);
  const list = await invokeInPage<{ items: AssetLike[] }>(page, 'assets:list', { filter: { kind: 'image' } });
  images = list.items;
  expect(images).toHaveLength(3);
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
});

async function sentRequest(page: Page, prompt: string): Promise<SentJob['request'] | undefined> {
  const jobs = await invokeInPage<SentJob[]>(page, 'jobs:list', { limit: 50 });
  return jobs.find((job) => job.prompt === prompt)?.request;
}

test('Create video: dragged onto a role or pressed and given one by keyboard; refusals say why; sent with roles', async ({
  page,
}) => {
  await page.goto(app.url);
  await page.getByTestId('nav-create-video').click();
  const form = new CreateVideoPage(page);
  await form.chooseModel('videoa-3.1');
  await form.prompt.fill('a door opens onto a lake');
  await expect(form.libraryPicks).toHaveCount(3);
  const [first, second, third] = images;
  await expect(form.libraryPicks.nth(0)).toHaveAttribute('data-asset-id', first?.id ?? '');

  // By drag: onto the first-frame target.
  await form.libraryPicks.nth(0).dragTo(form.dropTarget('first_frame'));
  await expect(form.referenceMessage).toHaveText('Added as first frame.');
  await expect(form.listItems('referenceImages')).toHaveCount(1);
  await expect(form.listItems('referenceImages').first()).toContainText(first?.url ?? '');
  await expect(form.listItems('referenceImages').first().getByTestId('reference-role')).toHaveValue('first_frame');
  await expect(form.dropTarget('first_frame').getByTestId('drop-status')).toHaveText('1 of 1');

  // The model's rules refuse, visibly, with the reason: one first frame, no reference videos, the wrong kind.
  await form.libraryPicks.nth(1).dragTo(form.dropTarget('first_frame'));
  await expect(form.referenceMessage).toHaveText('Video A 3.1 takes one first frame: remove the one there first.');
  await form.libraryPicks.nth(1).dragTo(form.dropTarget('reference_video'));
  await expect(form.referenceMessage).toHaveText('Video A 3.1 takes no reference videos.');
  await expect(form.dropTarget('reference_video').getByTestId('drop-status')).toHaveText('not taken');
  await expect(form.listItems('referenceImages')).toHaveCount(1);
  await screenshotBothSchemes(page, 'create-video-library-refused');

  // By keyboard: into the strip, along it with the arrow keys, Enter picks, the roles offered take focus.
  await form.libraryPicks.nth(0).focus();
  await page.keyboard.press('ArrowRight');
  await expect(form.libraryPicks.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(form.libraryPicks.nth(1)).toHaveAttribute('aria-pressed', 'true');
  // Focus lands on the first role with room; the full first frame is offered too, with its reason.
  await expect(form.addAs('last_frame')).toBeFocused();
  await expect(form.addAs('first_frame')).toHaveAttribute('title', /takes one first frame/);
  await expect(form.addAs('reference_video')).toHaveCount(0);
  await screenshotBothSchemes(page, 'create-video-library-pick');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(form.referenceMessage).toHaveText('Video A 3.1 takes one first frame: remove the one there first.');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(form.referenceMessage).toHaveText('Added as last frame.');
  await expect(form.libraryPicks.nth(1)).toBeFocused();
  await expect(form.libraryPicks.nth(1)).toHaveAttribute('aria-pressed', 'false');
  // And once more as a reference image, this time Esc first to show it cancels.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(form.references.getByTestId('reference-place')).toHaveCount(0);
  await expect(form.libraryPicks.nth(2)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(form.addAs('reference_image')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(form.listItems('referenceImages')).toHaveCount(3);
  await form.references.scrollIntoViewIfNeeded();
  await screenshotBothSchemes(page, 'create-video-library-references');

  await expect(form.generate).toBeEnabled();
  await form.generate.click();
  await expect(form.root.getByTestId('result-job').first()).toContainText('a door opens onto a lake');
  await expect
    .poll(async () => (await sentRequest(page, 'a door opens onto a lake'))?.referenceImages)
    .toEqual([
      { url: first?.url, role: 'first_frame' },
      { url: second?.url, role: 'last_frame' },
      { url: third?.url, role: 'reference_image' },
    ]);
});

test('Create image: library items dropped on the reference list or pressed; a duplicate is refused', async ({
  page,
}) => {
  await page.goto(app.url);
  await page.getByTestId('nav-create-image').click();
  const form = new CreateImagePage(page);
  await form.chooseModel('imagea');
  await form.prompt.fill('a door in the style of the references');
  await expect(form.libraryPicks).toHaveCount(3);
  const list = form.field('referenceImageURLs').getByTestId('url-list-drop');

  await form.libraryPicks.nth(0).dragTo(list);
  await expect(form.referenceMessage).toHaveText('Added to the reference images.');
  await form.libraryPicks.nth(0).dragTo(list);
  await expect(form.referenceMessage).toHaveText('Already in the reference images.');
  await form.libraryPicks.nth(2).focus();
  await page.keyboard.press('Enter');
  await expect(form.listItems('referenceImageURLs')).toHaveCount(2);
  await expect(form.listCounter('referenceImageURLs')).toHaveText('2 of 3');

  await form.generate.click();
  await expect
    .poll(async () => (await sentRequest(page, 'a door in the style of the references'))?.referenceImageURLs)
    .toEqual([images[0]?.url, images[2]?.url]);
});

test('a Library tile held over Create video in the sidebar opens it, and drops onto a role there', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  const form = new CreateVideoPage(page);
  const target = images[1];
  const tile = library.tile(target?.id ?? '');
  await expect(tile).toBeVisible();

  await tile.hover();
  await page.mouse.down();
  const nav = page.getByTestId('nav-create-video');
  await nav.hover();
  await nav.hover({ position: { x: 12, y: 10 } });
  await expect(form.root).toBeVisible();
  await form.dropTarget('last_frame').hover();
  await page.mouse.up();

  await expect(form.referenceMessage).toHaveText('Added as last frame.');
  await expect(form.listItems('referenceImages').last()).toContainText(target?.url ?? '');
  await expect(form.listItems('referenceImages').last().getByTestId('reference-role')).toHaveValue('last_frame');
});
