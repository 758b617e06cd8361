// One live source of model state: a model trained in the demo becomes usable in Create image the
// moment the core sees it ready — no Refresh, no "Check now" — and generates from there.
import { AppShellPage } from './pages/app-shell-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { ModelsPage } from './pages/models-page.ts';

const TWELVE = Array.from({ length: 12 }, (_, i) => {
  const n = i + 1;
  return { path: `photo-${String(n).padStart(2, '0')}.${n % 4 === 0 ? 'png' : 'jpg'}` };
});

test('a model trained in the demo is usable in Create with no Refresh, and generates', async ({ page, demoApp }) => {
  test.setTimeout(240_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await shell.goTo('models');
  const models = new ModelsPage(page);
  await models.createModel('Window light', 'person');
  await expect(models.status).toHaveText('new');
  const modelId = (await models.modelPage.getAttribute('data-model-id')) ?? '';
  expect(modelId).not.toBe('');
  await models.dropFiles(TWELVE);
  await expect(models.staged).toHaveCount(12);
  await models.uploadButton.click();
  await expect(models.uploadRows.and(page.locator('[data-state="succeeded"]'))).toHaveCount(12, { timeout: 60_000 });
  await expect(models.train).toBeEnabled();
  await models.train.click();
  await expect(models.status).toHaveText('training', { timeout: 15_000 });

  // Create image lists it at once, disabled with its state, and enables it by itself when ready.
  await shell.goTo('create-image');
  const form = new CreateImagePage(page);
  const option = form.model.locator(`option[value="${modelId}"]`);
  await expect(option).toBeDisabled();
  await expect(option).toBeEnabled({ timeout: 180_000 });
  await form.chooseModel(modelId);
  await form.prompt.fill('a portrait in window light');
  await expect(form.generate).toBeEnabled();
  await form.generate.click();
  const job = form.root.getByTestId('result-job').first();
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 60_000 });
  await expect(job.getByTestId('result-image').first()).toBeVisible();
});
