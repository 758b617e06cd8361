// Create image with the user's models: ready ones are usable, others are listed disabled with their status,
// and a trained model's own fields (size, steps, seed lock, input image) drive the request.
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

let emulator: RunningEmulator;
let newModelId: string;

test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  // A model created on the service but never trained: status "new".
  const response = await fetch(`${emulator.url}/models`, {
    method: 'POST',
    headers: { Authorization: 'Bearer demo-key', 'API-Version': '1', 'Content-Type': 'application/json' },
    body: JSON.stringify({ modelType: 'person' }),
  });
  const created = (await response.json()) as { result: { id: string; status: string } };
  newModelId = created.result.id;
});
test.afterAll(async () => {
  await emulator.close();
});

test('a ready trained model generates; one that is not ready is shown disabled with its status', async ({
  page,
  freshApp,
}) => {
  const shell = new AppShellPage(page);
  await shell.open(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, 'demo-key');
  await expect(shell.view('create-image')).toBeVisible();

  const form = new CreateImagePage(page);
  const yours = form.model.locator('optgroup[label="Your models"]');
  await expect(yours.locator(`option[value="${newModelId}"]`)).toBeDisabled({ timeout: 20_000 });
  await expect(yours.locator(`option[value="${newModelId}"]`)).toContainText('new');
  const ready = yours.locator('option:not([disabled])').first();
  const readyId = await ready.getAttribute('value');
  expect(readyId).toBeTruthy();

  await form.chooseModel(readyId ?? '');
  await expect(form.trainedSection).toBeVisible();
  await expect(form.field('aspectRatio')).toHaveCount(0);
  await expect(form.field('referenceImageURLs')).toHaveCount(0);
  await expect(form.generateBlocked).toContainText('at least one of prompt, preset or inputImageId');

  await form.prompt.fill('a portrait in soft window light');
  const width = form.field('width').getByRole('textbox');
  await width.fill('100');
  await expect(form.fieldError('width')).toContainText('from 256 to 2048');
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
