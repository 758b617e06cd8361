// Create video: each model's own options and reference rules, explained and checked before anything is sent.
import { AppShellPage } from './pages/app-shell-page.ts';
import { CreateVideoPage } from './pages/create-video-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

const url = (name: string) => `https://media.example.com/${name}`;

test.beforeEach(async ({ page, demoApp }) => {
  await new AppShellPage(page).open(demoApp.url);
  await page.getByTestId('nav-create-video').click();
});

test('the nine models are grouped by family', async ({ page }) => {
  const form = new CreateVideoPage(page);
  const groups = form.model.locator('optgroup');
  await expect(groups).toHaveCount(5);
  await expect(form.model.locator('option')).toHaveCount(9);
  await expect(groups.nth(3)).toHaveAttribute('label', 'Video family C · motion');
});

test('motion models take no duration, aspect ratio or audio', async ({ page }) => {
  const form = new CreateVideoPage(page);
  await form.chooseModel('videoc-video-standard');
  await expect(form.field('duration')).toBeVisible();
  await expect(form.field('generateAudio')).toBeVisible();

  await form.chooseModel('videoc-motion-standard');
  await expect(form.field('duration')).toHaveCount(0);
  await expect(form.field('aspectRatio')).toHaveCount(0);
  await expect(form.field('generateAudio')).toHaveCount(0);
  await expect(form.field('characterOrientation')).toBeVisible();
  await expect(form.rules).toContainText('Takes no duration, aspect ratio or generate audio');
});

test('videoa needs duration 8 with a reference image', async ({ page }) => {
  const form = new CreateVideoPage(page);
  await form.chooseModel('videoa-3.1');
  await form.prompt.fill('waves on a pier');
  await expect(form.rules).toContainText('Duration must be 8 s when a reference image is used');
  await form.pickSegment('duration', '4 s');
  await expect(form.generate).toBeEnabled();

  await form.addReferenceImage(url('style.png'), 'reference_image');
  await expect(form.fieldError('duration')).toContainText('Duration must be 8 s');
  await expect(form.generate).toBeDisabled();
  await form.pickSegment('duration', '8 s');
  await expect(form.generate).toBeEnabled();
});

test('videob-1.5-pro ignores reference images and says so; first and last frames are one each', async ({ page }) => {
  const form = new CreateVideoPage(page);
  await form.chooseModel('videob-1.5-pro');
  await form.prompt.fill('a paper plane');
  await expect(form.rules).toContainText('ignored by this model');
  await form.addReferenceImage(url('a.png'), 'first_frame');
  await form.addReferenceImage(url('b.png'), 'reference_image');
  await expect(form.listItems('referenceImages').last()).toContainText('will not be used');
  await expect(form.generate).toBeEnabled();

  await form.addReferenceImage(url('c.png'), 'first_frame');
  await expect(form.fieldError('referenceImages')).toContainText('at most 1 first frame');
  await expect(form.generate).toBeDisabled();
});

test('videob-2.0 takes reference videos (up to 3); videod takes none', async ({ page }) => {
  const form = new CreateVideoPage(page);
  await form.chooseModel('videob-2.0');
  await form.prompt.fill('city timelapse');
  await expect(form.rules).toContainText('up to 9 reference images');
  await form.addToList('referenceVideos', [url('1.mp4'), url('2.mp4'), url('3.mp4')]);
  await expect(form.listCounter('referenceVideos')).toHaveText('3 of 3');
  await form.addToList('referenceVideos', [url('4.mp4')]);
  await expect(form.fieldError('referenceVideos')).toContainText('at most 3 reference videos');

  // Switching to a model without reference videos keeps them visible, refused, so nothing is dropped silently.
  await form.chooseModel('videod-1.5');
  await expect(form.fieldError('referenceVideos')).toContainText('not accepted by Video D 1.5');
  await expect(form.generate).toBeDisabled();
});

test('videoc takes 4 items in all: elements, images and videos together', async ({ page }) => {
  const form = new CreateVideoPage(page);
  await form.chooseModel('videoc-video-pro');
  await form.prompt.fill('a dancer');
  await form.addToList('elementIDs', ['el-1', 'el-2']);
  await form.addReferenceImage(url('a.png'), 'reference_image');
  await form.addToList('referenceVideos', [url('moves.mp4')]);
  await expect(form.references).toContainText('4 of 4 items');
  await expect(form.generate).toBeEnabled();
  await form.addToList('elementIDs', ['el-3']);
  await expect(form.fieldError('elementIDs')).toContainText('at most 4 elements and references in total');
  await expect(form.generate).toBeDisabled();
});

const FAMILY_RUNS = [
  { model: 'videoa-3.1-fast', image: 'first_frame' },
  { model: 'videob-2.0', image: 'reference_image' },
  { model: 'videoc-video-standard', image: 'reference_image' },
  { model: 'videoc-motion-standard', image: 'reference_image' },
  { model: 'videod-1.5', image: 'last_frame' },
];

for (const run of FAMILY_RUNS) {
  test(`a video with ${run.model} and a ${run.image} reference ends with its video`, async ({ page }) => {
    const form = new CreateVideoPage(page);
    await form.chooseModel(run.model);
    await form.prompt.fill(`a kite over the sea by ${run.model}`);
    await form.addReferenceImage(url(`${run.image}.png`), run.image);
    await expect(form.generate).toBeEnabled();
    await form.generate.click();
    const job = form.root.getByTestId('result-job').first();
    await expect(job).toContainText(`a kite over the sea by ${run.model}`);
    await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 50_000 });
    await expect(job.getByTestId('result-video').or(job.getByTestId('result-stream'))).toHaveCount(1);
    if (run.model === 'videod-1.5') await screenshotBothSchemes(page, 'create-video-results');
  });
}

test('videoa-3.1 keeps a first frame and a style reference, each with its role, and asks 8 s for the style; a motion model takes no duration', async ({
  page,
}) => {
  const form = new CreateVideoPage(page);
  await form.chooseModel('videoa-3.1');
  await form.prompt.fill('a lighthouse in a storm, waves crashing');
  await form.pickSegment('duration', '6 s');
  await expect(form.field('duration').getByRole('radio', { name: '6 s', exact: true })).toBeChecked();
  await form.addReferenceImage(url('first.png'), 'first_frame');
  await form.addReferenceImage(url('style.png'), 'reference_image');
  const items = form.listItems('referenceImages');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByTestId('reference-role')).toHaveValue('first_frame');
  await expect(items.nth(1).getByTestId('reference-role')).toHaveValue('reference_image');
  await form.references.scrollIntoViewIfNeeded();
  await expect(form.references).toBeInViewport();
  // A style reference asks videoa for 8 s: 6 s is refused beside the field, and Generate waits.
  await expect(form.fieldError('duration')).toContainText(/\b8\b/);
  await expect(form.generate).toBeDisabled();
  await form.pickSegment('duration', '8 s');
  await expect(form.fieldError('duration')).toHaveCount(0);
  await expect(form.generate).toBeEnabled();

  await form.chooseModel('videoc-motion-pro');
  await expect(form.field('duration')).toHaveCount(0);
  await expect(form.field('characterOrientation')).toBeVisible();
});
