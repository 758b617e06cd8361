// Models and training, end to end: photos dropped (a duplicate and a non-image refused with their reasons)
// or picked (files and a folder), uploaded with a queue, trained (429 explained and retried), a ready model
// generating from Create image; rename, image filters and deletes. The emulator runs in this process so
// the test can move its clock past the 20–25 minutes a training takes.
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { ModelsPage, PHOTOS_DIR } from './pages/models-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

let emulator: RunningEmulator;

const TWELVE = Array.from({ length: 12 }, (_, i) => {
  const n = i + 1;
  return `photo-${String(n).padStart(2, '0')}.${n % 4 === 0 ? 'png' : 'jpg'}`;
});

test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
test.afterAll(async () => {
  await emulator.close();
});

async function openModels(page: import('@playwright/test').Page, url: string): Promise<ModelsPage> {
  const shell = new AppShellPage(page);
  await shell.open(url);
  await new FirstRunPage(page).enterKey(emulator.url, 'demo-key');
  await expect(shell.view('create-image')).toBeVisible();
  await shell.goTo('models');
  const models = new ModelsPage(page);
  await expect(models.root).toBeVisible();
  return models;
}

test('dropped photos are checked, uploaded and trained into a ready model that generates', async ({
  page,
  freshApp,
}) => {
  test.setTimeout(180_000);
  const models = await openModels(page, freshApp.url);
  await expect(models.list.getByText('Provided by the service')).toBeVisible({ timeout: 20_000 });

  await models.createModel('Studio portraits', 'person');
  await expect(models.row('Studio portraits')).toHaveAttribute('aria-current', 'true');
  await expect(models.status).toHaveText('new');
  await expect(models.train).toBeDisabled();
  await expect(models.trainBlocked).toHaveText('Needs 12–20 training photos; it has 0. Add 12 more.');

  // 14 files: twelve photos, one of them again under another name, and a text file named .jpg.
  await models.dropFiles([
    ...TWELVE.map((path) => ({ path })),
    { path: 'photo-03.jpg', name: 'photo-03 copy.jpg' },
    { path: 'not-a-photo.jpg' },
  ]);
  await expect(models.staged).toHaveCount(12);
  await expect(models.refused).toHaveCount(2);
  await expect(models.refused.filter({ hasText: 'not-a-photo.jpg' })).toContainText(
    'not a JPEG, PNG, WebP or HEIC image (judged by its content',
  );
  await expect(models.refused.filter({ hasText: 'photo-03 copy.jpg' })).toContainText('the same image');
  await expect(models.stagedSummary).toHaveText('the model will have 12 of 12–20: enough to train');
  // Thumbnails of what will be sent are the files themselves (object URLs), loaded by the browser.
  const firstThumb = models.staged.first().locator('img');
  await expect(firstThumb).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => firstThumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(500);
  await screenshotBothSchemes(page, 'models-page-staged');

  await models.uploadButton.click();
  await expect(models.uploadRows).toHaveCount(12);
  await expect(models.uploadRows.and(page.locator('[data-state="succeeded"]'))).toHaveCount(12, { timeout: 30_000 });
  await expect(models.trainingCount).toHaveText('12 of 12–20: enough to train');
  await models.filterImages('Training photos');
  await expect(models.imageTiles).toHaveCount(12);

  // The service refuses once with 429: explained, retried after its wait.
  emulator.control.setFaults({
    rules: [{ method: 'GET', path: '/models/:modelID/train', rateLimit: { count: 1, retryAfterSeconds: 2 } }],
  });
  await expect(models.train).toBeEnabled();
  await models.train.click();
  await expect(models.trainingRefusal).toContainText('Too many trainings are running');
  await expect(models.trainingRetry).toBeDisabled();
  await expect(models.trainingRetry).toBeEnabled({ timeout: 10_000 });
  await models.trainingRetry.click();
  await expect(models.trainingRefusal).toHaveCount(0);
  await expect(models.trainingProgress).toContainText('of the usual 20–25 min');
  await expect(models.status).toHaveText('training');
  await expect(models.row('Studio portraits').getByTestId('model-status')).toHaveText('training');
  await screenshotBothSchemes(page, 'models-page-training');

  // 26 minutes later on the service's clock; "Check now" asks instead of waiting for the 5-minute check.
  emulator.control.advanceClock(26 * 60_000);
  await models.checkNow.click();
  await expect(models.status).toHaveText('ready', { timeout: 15_000 });
  await expect(page.getByTestId('toast').filter({ hasText: 'Studio portraits is trained and ready' })).toBeVisible();
  await expect(models.train).toHaveText('Train again');
  await models.row('Studio portraits').focus();
  await screenshotBothSchemes(page, 'models-list');

  const modelId = await models.modelPage.getAttribute('data-model-id');
  await models.modelPage.getByRole('button', { name: 'Use in Create image' }).click();
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();
  await expect(form.model).toHaveValue(modelId ?? '');
  await expect(form.trainedSection).toBeVisible();
  await form.prompt.fill('a studio portrait in soft window light');
  await form.generate.click();
  const job = form.root.getByTestId('result-job').first();
  await expect(job).toBeVisible();
  emulator.control.advanceClock(60_000);
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  await expect(job.getByTestId('result-image').first()).toBeVisible();
});

test('photos and a folder are picked, renamed, filtered, deleted, and the model is deleted with its images', async ({
  page,
  freshApp,
}) => {
  test.setTimeout(120_000);
  const models = await openModels(page, freshApp.url);
  await models.createModel('');
  await expect(models.modelPage).toBeVisible();
  const modelId = await models.modelPage.getAttribute('data-model-id');
  expect(modelId).toBeTruthy();
  // An unnamed model is named in words (contract/names.ts), never by its mdl_ id.
  await expect(models.name).toContainText(`Untitled model ${modelId!.slice(4, 10)}`);

  // Renamed in place; the list follows.
  await models.rename('Ink studies');
  await expect(models.name).toHaveText(/Ink studies/);
  await expect(models.row('Ink studies')).toHaveCount(1);
  await models.name.click();
  await models.labelInput.fill('Discarded name');
  await models.labelInput.press('Escape');
  await expect(models.name).toHaveText(/Ink studies/);

  // Picked with the keyboard-reachable file picker: a low-resolution photo is accepted with a warning.
  await models.pickFiles(['photo-13.jpg', 'photo-14.jpg', 'low-res.jpg']);
  await expect(models.staged).toHaveCount(3);
  await expect(models.modelPage.getByTestId('photo-warning')).toHaveCount(1);
  await expect(models.modelPage).toContainText('low-res.jpg: Low resolution (320×320)');
  // The service fails the first upload: it is shown failed with the reason, and Retry sends it again.
  emulator.control.setFaults({
    rules: [{ method: 'POST', path: '/images/upload', serverError: { count: 1, status: 500 } }],
  });
  await models.uploadButton.click();
  const failed = models.uploadRows.and(page.locator('[data-state="failed"]'));
  await expect(failed).toHaveCount(1, { timeout: 30_000 });
  await expect(failed.getByTestId('upload-error')).not.toBeEmpty();
  await failed.getByRole('button', { name: /^Retry / }).click();
  await expect(models.uploadRows.and(page.locator('[data-state="succeeded"]'))).toHaveCount(3, { timeout: 30_000 });
  await expect(models.trainBlocked).toHaveText('Needs 12–20 training photos; it has 3. Add 9 more.');
  await models.modelPage.getByRole('button', { name: 'Clear finished' }).click();
  await expect(models.uploadRows).toHaveCount(0);

  // A whole folder: what is already on its way and the non-image are refused, the rest waits for Upload.
  await models.pickFolder(PHOTOS_DIR);
  await expect(models.refused.filter({ hasText: 'not-a-photo.jpg' })).toHaveCount(1);
  await expect(models.refused.filter({ hasText: 'the same image' })).toHaveCount(3);
  await expect(models.staged).toHaveCount(12);
  await models.modelPage.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(models.staged).toHaveCount(0);

  await models.filterImages('References');
  await expect(models.imageTiles).toHaveCount(0);
  await expect(models.images).toContainText('No images here yet');
  await models.filterImages('Training photos');
  await expect(models.imageTiles).toHaveCount(3);
  const tile = models.imageTiles.first();
  await tile.hover();
  await tile.getByRole('button', { name: /Delete image/ }).click();
  await page.getByTestId('confirm-delete-image').click();
  await expect(models.imageTiles).toHaveCount(2);
  await expect(models.trainingCount).toHaveText('2 of 12–20: add 10 more to train');

  await models.modelPage.getByTestId('delete-model').click();
  await expect(models.deleteDialog).toContainText('deletes the model and all its images on the service');
  await models.deleteDialog.getByTestId('confirm-delete-model').click();
  await expect(models.deleteDialog).toHaveCount(0);
  await expect(models.row('Ink studies')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'Deleted Ink studies' })).toBeVisible();
  const listed = await fetch(`${emulator.url}/models`, {
    headers: { Authorization: 'Bearer demo-key', 'API-Version': '1' },
  }).then((r) => r.json() as Promise<{ result: { id: string }[] }>);
  expect(listed.result.map((m) => m.id)).not.toContain(modelId);
});
