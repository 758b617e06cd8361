// Create image with the user's models: ready ones are usable, others are listed disabled with their status,
// and a trained model's own fields (size, steps, seed lock, input image) drive the request. The input image
// picker offers the model's reference (auxiliaryType) images and uploads new ones by drop or file picker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppShellPage } from './pages/app-shell-page.ts';
import { expect, SERVICE_KEY, serviceTest as test } from './fixtures/service-account.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { PHOTOS_DIR } from './pages/models-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

const SERVICE_HEADERS = { Authorization: `Bearer ${SERVICE_KEY}`, 'API-Version': '1' };
/** A model the service provides ready to generate; the input-image test gives it a reference image. */
const REFERENCE_MODEL = 'general-portrait';

let newModelId: string;
let serviceReferenceId: string;

test.beforeAll(async ({ emulator }) => {
  // A model created on the service but never trained: status "new".
  const response = await fetch(`${emulator.url}/models`, {
    method: 'POST',
    headers: { ...SERVICE_HEADERS, 'Content-Type': 'application/json' },
    body: JSON.stringify({ modelType: 'person' }),
  });
  const created = (await response.json()) as { result: { id: string; status: string } };
  newModelId = created.result.id;

  // A reference image already on the service for a ready model (listing the models makes the service's own).
  await fetch(`${emulator.url}/models`, { headers: SERVICE_HEADERS });
  const form = new FormData();
  form.append('data', JSON.stringify({ modelID: REFERENCE_MODEL, type: 'auxiliaryType' }));
  form.append(
    'file',
    new Blob([readFileSync(join(PHOTOS_DIR, 'photo-04.png'))], { type: 'image/png' }),
    'photo-04.png',
  );
  const uploaded = await fetch(`${emulator.url}/images/upload`, {
    method: 'POST',
    headers: SERVICE_HEADERS,
    body: form,
  });
  expect(uploaded.status, 'the reference image is on the service').toBe(200);
  serviceReferenceId = ((await uploaded.json()) as { result: { id: string } }).result.id;
});

test('a ready trained model generates; one that is not ready is shown disabled with its status', async ({
  page,
  signIn,
}) => {
  const shell = new AppShellPage(page);
  await signIn();
  await expect(shell.view('create-image')).toBeVisible();

  const form = new CreateImagePage(page);
  const yours = form.model.locator('optgroup[label="Your models"]');
  await expect(yours.locator(`option[value="${newModelId}"]`)).toBeDisabled({ timeout: 20_000 });
  await expect(yours.locator(`option[value="${newModelId}"]`)).toContainText('new');
  // A ready model with the trained-model form: the service's free and general ones are.
  const ready = form.model.locator('optgroup[label="Provided by the service"] option:not([disabled])').first();
  const readyId = await ready.getAttribute('value');
  expect(readyId).toBeTruthy();

  await form.chooseModel(readyId ?? '');
  await expect(form.trainedSection).toBeVisible();
  await expect(form.field('aspectRatio')).toHaveCount(0);
  await expect(form.field('referenceImageURLs')).toHaveCount(0);
  await expect(form.generateBlocked).toContainText('Needs at least one of: prompt, preset, input image');

  await form.prompt.fill('a portrait in soft window light');
  const width = form.field('width').getByRole('textbox');
  await width.fill('100');
  await expect(form.fieldError('width')).toContainText('Width must be a whole number 256–2048; you entered 100');
  await expect(form.generate).toBeDisabled();
  await width.fill('512');
  await form.field('height').getByRole('textbox').fill('768');

  // Typing a seed locks it; the same seed goes with the request.
  await form.field('seed').getByRole('textbox').fill('1234');
  await expect(form.root.getByRole('button', { name: 'Unlock seed' })).toHaveAttribute('aria-pressed', 'true');
  await screenshotBothSchemes(page, 'create-image-trained');

  await form.generate.click();
  const job = form.root.getByTestId('result-job').first();
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  await expect(job.getByTestId('result-image')).toHaveCount(1);
});

interface JobLike {
  jobId: string | null;
  state: string;
  request: Record<string, unknown>;
}

test("the input image: the model's reference images as thumbnails, uploads by drop and by file picker, a refused non-image, the chosen one sent as inputImageId", async ({
  page,
  signIn,
}) => {
  await signIn();
  const form = new CreateImagePage(page);
  await expect(form.model.locator(`option[value="${REFERENCE_MODEL}"]`)).toBeEnabled({ timeout: 20_000 });
  await form.chooseModel(REFERENCE_MODEL);
  const picker = form.field('inputImageId');
  const typedId = form.field('inputImageId-text').locator('input');

  // The reference image already on the service is offered as a thumbnail the browser loaded; none is chosen.
  const serviceReference = form.inputImage(serviceReferenceId);
  await expect(form.inputImages()).toHaveCount(1);
  await expect(serviceReference).toHaveAttribute('aria-checked', 'false');
  await expect
    .poll(() => serviceReference.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth), {
      timeout: 10_000,
    })
    .toBeGreaterThan(0);
  await expect(picker.getByRole('radio', { name: 'None' })).toHaveAttribute('aria-checked', 'true');

  // A photo and a text file named .jpg dropped together: the text file is refused by its content,
  // with the reason, and the refusal stays while the photo is uploaded, offered and chosen.
  await form.dropInputImages([{ path: 'not-a-photo.jpg' }, { path: 'photo-05.jpg' }]);
  await expect(form.inputImageRefusals()).toHaveCount(1);
  await expect(form.inputImageRefusals()).toContainText('not-a-photo.jpg');
  await expect(form.inputImageRefusals()).toContainText('not a JPEG, PNG, WebP or HEIC image (judged by its content');
  await expect(form.inputImages()).toHaveCount(2, { timeout: 20_000 });
  await expect(form.inputImageRefusals()).toHaveCount(1);
  await expect(typedId).not.toHaveValue('');
  const droppedId = await typedId.inputValue();
  expect(droppedId).not.toBe(serviceReferenceId);
  await expect(form.inputImage(droppedId)).toHaveAttribute('aria-checked', 'true');
  await expect(form.inputImageUploads()).toHaveCount(0);

  // One picked with the file chooser (from the keyboard) likewise.
  await form.pickInputImages(['photo-06.jpg']);
  await expect(form.inputImages()).toHaveCount(3, { timeout: 20_000 });
  await expect(typedId).not.toHaveValue(droppedId);
  const pickedId = await typedId.inputValue();
  expect([serviceReferenceId, droppedId, '']).not.toContain(pickedId);
  await expect(form.inputImage(pickedId)).toHaveAttribute('aria-checked', 'true');
  await expect(form.inputImage(droppedId)).toHaveAttribute('aria-checked', 'false');

  // Choosing the service's reference image: the only one checked, its id in the field.
  await serviceReference.click();
  await expect(serviceReference).toHaveAttribute('aria-checked', 'true');
  await expect(picker.getByRole('radio', { checked: true })).toHaveCount(1);
  await expect(typedId).toHaveValue(serviceReferenceId);
  await screenshotBothSchemes(page, 'create-image-trained-input-image');

  // The request carries it, and the service accepted the job (it checks the id is a reference image of ours).
  const prompt = 'a portrait that follows the reference';
  await form.prompt.fill(prompt);
  await form.generate.click();
  await expect
    .poll(
      async () => {
        const jobs = await invokeInPage<JobLike[]>(page, 'jobs:list', {});
        const job = jobs.find((j) => j.request['prompt'] === prompt);
        return job ? { ...job.request, accepted: job.jobId !== null && job.state !== 'failed' } : null;
      },
      { timeout: 20_000 },
    )
    .toMatchObject({ modelID: REFERENCE_MODEL, inputImageId: serviceReferenceId, accepted: true });
  await expect(form.root.getByTestId('result-job').first()).not.toHaveAttribute('data-state', 'failed');
});
