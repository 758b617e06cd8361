// Create image: the form follows contract/rules live — per-model fields, reference limits, imagec-2 compression, Generate's reason —
// and every public image model generates through it.
import { AppShellPage } from './pages/app-shell-page.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';
import type { SettingSpec } from '../src-main/contract/rules/common.ts';
import { PUBLIC_IMAGE_MODELS, PUBLIC_IMAGE_MODEL_IDS } from '../src-main/contract/rules/index.ts';

const refs = (n: number) => Array.from({ length: n }, (_, i) => `https://images.example.com/ref-${i + 1}.png`);

test.beforeEach(async ({ page, demoApp }) => {
  await new AppShellPage(page).open(demoApp.url);
  await page.getByTestId('nav-create-image').click();
});

test('Generate is disabled with the reason until a prompt is written', async ({ page }) => {
  const form = new CreateImagePage(page);
  await expect(form.generate).toBeDisabled();
  await expect(form.generateBlocked).toContainText(/prompt is required/i);
  // The empty prompt does not shout before it was touched.
  await expect(form.fieldError('prompt')).toHaveCount(0);
  await form.prompt.fill('a lighthouse at dusk');
  await expect(form.generate).toBeEnabled();
  await expect(form.generateBlocked).toHaveCount(0);
  await form.prompt.fill('');
  await expect(form.fieldError('prompt')).toContainText(/prompt is required/i);
});

test('imagea takes at most 3 reference URLs: a 4th shows the limit and disables Generate', async ({ page }) => {
  const form = new CreateImagePage(page);
  await form.chooseModel('imagea');
  await form.prompt.fill('a red bicycle');
  await form.addReferenceUrls(refs(3));
  await expect(form.listCounter('referenceImageURLs')).toHaveText('3 of 3');
  await expect(form.generate).toBeEnabled();

  await form.addReferenceUrls(refs(1));
  await expect(form.listCounter('referenceImageURLs')).toHaveText('4 of 3');
  await expect(form.fieldError('referenceImageURLs')).toContainText('at most 3');
  await expect(form.generate).toBeDisabled();
  await expect(form.generateBlocked).toContainText('at most 3');

  // The same four are fine for imagea-pro (14), so switching model clears the problem.
  await form.chooseModel('imagea-pro');
  await expect(form.listCounter('referenceImageURLs')).toHaveText('4 of 14');
  await expect(form.generate).toBeEnabled();

  // Something that is not a link is refused on entry, with the reason; nothing else changes.
  await form.addReferenceUrls(['not a url']);
  await expect(form.fieldError('referenceImageURLs')).toContainText('“not a url” is not a web address');
  await expect(form.listCounter('referenceImageURLs')).toHaveText('4 of 14');
  await expect(form.generate).toBeEnabled();
});

test('imagec-2 takes outputCompression only with jpeg output', async ({ page }) => {
  const form = new CreateImagePage(page);
  await form.chooseModel('imagec-2');
  await form.prompt.fill('a product shot');
  const compression = form.field('outputCompression').getByRole('textbox');
  // jpeg is the default format: compression is available with its bounds.
  await expect(form.field('outputFormat').getByRole('radio', { name: 'JPEG' })).toHaveAttribute('aria-checked', 'true');
  await expect(compression).toBeEnabled();
  await expect(form.field('outputCompression')).toContainText('0–100');
  await compression.fill('150');
  await expect(form.fieldError('outputCompression')).toContainText(
    'JPEG compression must be a whole number 0–100; you entered 150',
  );
  await expect(form.generate).toBeDisabled();
  await compression.fill('80');
  await expect(form.generate).toBeEnabled();

  await form.pickSegment('outputFormat', 'PNG');
  await expect(compression).toBeDisabled();
  await expect(form.field('outputCompression')).toContainText('Only with JPEG output.');
  await expect(form.generate).toBeEnabled();
});

test('each model shows only its own options', async ({ page }) => {
  const form = new CreateImagePage(page);
  await form.chooseModel('imagea');
  await expect(form.field('safetyFilterLevel')).toBeVisible();
  await expect(form.field('imageSize').getByRole('radio', { name: '1K' })).toHaveAttribute('aria-checked', 'true');
  await expect(form.field('quality')).toHaveCount(0);

  await form.chooseModel('imageb-5-lite');
  await expect(form.field('safetyFilterLevel')).toHaveCount(0);
  await expect(form.field('optimizeMode')).toBeVisible();
  await expect(form.field('imageSize').getByRole('radio')).toHaveText(['Default', '2K', '3K']);

  await form.chooseModel('imagec-2');
  await expect(form.field('quality')).toBeVisible();
  await expect(form.field('optimizeMode')).toHaveCount(0);
  await form.pickSegment('imageSize', '2K');
  await expect(form.field('imageSize')).toContainText('2048 × 2048 px');
});

test('imageb warns that several images force sequentialMode to auto', async ({ page }) => {
  const form = new CreateImagePage(page);
  await form.chooseModel('imageb');
  await form.prompt.fill('four seasons');
  await form.pickSegment('sequentialMode', 'Disabled');
  await form.pickSegment('numImages', '3');
  await expect(form.fieldNotice('sequentialMode')).toContainText('forced to auto');
  await expect(form.generate).toBeEnabled();
});

test('Generate puts the job in the queue dock at once and shows its images when done', async ({ page }) => {
  const form = new CreateImagePage(page);
  const shell = new AppShellPage(page);
  await form.chooseModel('imageb');
  await form.prompt.fill('a lighthouse at dusk');
  await form.pickSegment('numImages', '2');
  await form.generate.click();
  // The queue stays out of the way: counts in the status bar, the list only on demand.
  await expect(shell.jobsInFlight).toContainText(/sending|queued|running/);
  await expect(shell.queueDock).toHaveCount(0);
  await shell.jobsInFlight.click();
  await expect(shell.queueDock).toBeVisible();
  await expect(shell.queueDock.getByTestId('queue-item').first()).toContainText('a lighthouse at dusk');
  const job = form.root.getByTestId('result-job').first();
  await expect(job).toContainText('a lighthouse at dusk');
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  await expect(job.getByTestId('result-image')).toHaveCount(2);
  // The finished row folds away by itself a few seconds later.
  await expect(shell.jobsInFlight).toHaveText('No jobs running', { timeout: 15_000 });
  await expect(shell.queueDock.getByTestId('queue-item')).toHaveCount(0);
  await screenshotBothSchemes(page, 'create-image-results');
});

test('a finished result opens the asset view on click or Enter, with upscale and remix at hand', async ({ page }) => {
  const form = new CreateImagePage(page);
  const view = new AssetViewPage(page);
  await form.chooseModel('imagea');
  await form.prompt.fill('a paper boat on a puddle');
  await form.pickSegment('numImages', '2');
  await form.generate.click();
  const job = form.root.getByTestId('result-job').filter({ hasText: 'a paper boat on a puddle' });
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  const results = job.getByTestId('result-open');
  await expect(results).toHaveCount(2);

  const second = results.nth(1);
  const secondId = await second.getAttribute('data-asset-id');
  await second.click();
  await expect(view.root).toBeVisible();
  await expect(view.root).toHaveAttribute('data-asset-id', secondId ?? '');
  await expect(view.position).toHaveText('2 of 2');
  await expect(view.action('upscale')).toBeVisible();
  await expect(view.action('remix')).toBeVisible();
  await screenshotBothSchemes(page, 'create-image-result-asset-view');
  await page.keyboard.press('Escape');
  await expect(view.root).toHaveCount(0);
  await expect(second).toBeFocused();

  // From the keyboard: the first result, Enter.
  await results.first().focus();
  await page.keyboard.press('Enter');
  await expect(view.root).toHaveAttribute('data-asset-id', (await results.first().getAttribute('data-asset-id')) ?? '');
  await expect(view.position).toHaveText('1 of 2');
  await page.keyboard.press('Escape');
  await expect(view.root).toHaveCount(0);
});

test('presets are browsed by category, searched, picked and cleared', async ({ page }) => {
  const form = new CreateImagePage(page);
  const dialog = page.getByTestId('preset-dialog');
  await form.field('preset').getByRole('button', { name: 'Choose a preset…' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { level: 3 }).first()).toBeVisible();
  // Each preset shows a picture: the newest image made with it, or its category's swatch.
  const options = dialog.getByTestId('preset-option');
  const pictures = options.locator('[data-testid="preset-sample"], [data-testid="preset-swatch"]');
  await expect(pictures).toHaveCount(await options.count());
  await screenshotBothSchemes(page, 'create-image-presets');

  const first = dialog.getByRole('listitem').first().getByRole('button');
  const name = (await first.locator('span').first().textContent()) ?? '';
  await dialog.getByLabel('Search presets').fill(name.slice(0, 4));
  await expect(dialog.getByRole('button', { name: new RegExp(name) }).first()).toBeVisible();
  await dialog.getByLabel('Search presets').fill('zzzz-no-such-preset');
  await expect(dialog).toContainText('No preset matches');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await form.field('preset').getByRole('button', { name: 'Choose a preset…' }).click();
  await dialog.getByLabel('Search presets').fill('');
  await dialog.getByRole('listitem').first().getByRole('button').click();
  await expect(dialog).toHaveCount(0);
  await expect(form.field('preset')).toContainText(name);
  await expect(
    form.field('preset').locator('[data-testid="preset-sample"], [data-testid="preset-swatch"]'),
  ).toHaveCount(1);
  await form.field('preset').getByRole('button', { name: 'Clear preset' }).click();
  await expect(form.field('preset')).toContainText('Choose a preset…');
});

/** An enum setting of a model's table: its values, and 'Default' first when the spec gives none. */
function choicesOf(spec: SettingSpec): { values: string[]; offered: string[] } {
  const values = spec.kind === 'enum' ? [...spec.values] : [];
  return { values, offered: spec.kind === 'enum' && spec.default === undefined ? ['Default', ...values] : values };
}

/**
 * Every public image model of the rule table, each with options of its own set through the form:
 * the sizes each one allows (imageb-4_5 only 2K/4K, imageb-5-lite only 2K/3K) and a further
 * choice of its family (its first enum setting besides the size, at its last value). Read from
 * the table, so a model or family added there is generated here too.
 */
const PUBLIC_MODELS = PUBLIC_IMAGE_MODEL_IDS.map((model) => {
  const { optionGroup, options } = PUBLIC_IMAGE_MODELS[model];
  const table: Record<string, SettingSpec> = options;
  const sizeSpec = table['imageSize'];
  const { values: sizeValues, offered: sizes } = sizeSpec ? choicesOf(sizeSpec) : { values: [], offered: [] };
  const field = Object.keys(table).find((name) => name !== 'imageSize' && table[name]!.kind === 'enum')!;
  const { values, offered } = choicesOf(table[field]!);
  const value = values.at(-1)!;
  return {
    model,
    group: optionGroup,
    sizes,
    size: sizeValues[1] ?? sizeValues[0] ?? null,
    /** Picked by its place among the choices the control offers ('Default' included). */
    extra: { field, value, index: offered.indexOf(value) },
  };
});

interface SentJob {
  prompt: string | null;
  state: string;
  request: { modelID?: string; options?: Record<string, Record<string, unknown>> };
}

test('every public image model generates through the form, with options of its own, to a visible image', async ({
  page,
}) => {
  test.setTimeout(60_000 + 5_000 * PUBLIC_IMAGE_MODEL_IDS.length);
  const form = new CreateImagePage(page);
  // All of them are submitted first and run side by side, so the test waits for one round of jobs, not seven.
  expect(PUBLIC_MODELS.length).toBe(PUBLIC_IMAGE_MODEL_IDS.length);
  for (const { model, sizes, size, extra } of PUBLIC_MODELS) {
    await test.step(`${model}: options and Generate`, async () => {
      await form.chooseModel(model);
      if (size !== null) {
        await expect(form.field('imageSize').getByRole('radio')).toHaveText(sizes);
        await form.pickSegment('imageSize', size);
      }
      const control = form.field(extra.field);
      if ((await control.getByRole('combobox').count()) > 0) {
        await control.getByRole('combobox').selectOption(extra.value);
      } else {
        await control.getByRole('radio').nth(extra.index).click();
      }
      await form.prompt.fill(`${model}: a teapot`);
      await expect(form.generate).toBeEnabled();
      await form.generate.click();
      await expect(form.root.getByTestId('result-job').first()).toContainText(`${model}: a teapot`);
    });
  }

  for (const { model, group, size, extra } of PUBLIC_MODELS) {
    await test.step(`${model}: finished, its image shown, its options sent`, async () => {
      const job = form.root.getByTestId('result-job').filter({ hasText: `${model}: a teapot` });
      await expect(job).toHaveCount(1);
      await expect(job).toContainText(model);
      await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
      const image = job.getByTestId('result-image');
      await expect(image).toHaveCount(1);
      // Results are large now (issue 31) and load lazily: the user scrolls to each one.
      await image.scrollIntoViewIfNeeded();
      await expect(image).toBeVisible();
      await expect
        .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 30_000 })
        .toBeGreaterThan(0);

      const jobs = await invokeInPage<SentJob[]>(page, 'jobs:list', { limit: 200 });
      const sent = jobs.find((j) => j.prompt === `${model}: a teapot`);
      expect(sent?.request.modelID).toBe(model);
      const sizeSent = size !== null ? { imageSize: size } : {};
      expect(sent?.request.options?.[group]).toMatchObject({ ...sizeSent, [extra.field]: extra.value });
    });
  }
});

test('imagea with a reference over its cap says why beside the field; imagec-2 takes them and shows its own options', async ({
  page,
}) => {
  const form = new CreateImagePage(page);
  await form.chooseModel('imagea');
  await form.prompt.fill('a lighthouse at dusk, long exposure, teal and orange');
  await form.addReferenceUrls(refs(4));
  await expect(form.fieldError('referenceImageURLs')).toContainText('at most 3');
  await expect(form.generate).toBeDisabled();

  await form.chooseModel('imagec-2');
  const options = form.root.getByTestId('section-options');
  await options.scrollIntoViewIfNeeded();
  await expect(options).toBeInViewport();
  for (const label of ['Size', 'Quality', 'Background', 'Moderation', 'Format', 'JPEG compression']) {
    await expect(options.getByLabel(label, { exact: true })).toBeVisible();
  }
  // imagec-2 takes up to 10 references: the same four are fine now.
  await expect(form.listCounter('referenceImageURLs')).toHaveText('4 of 10');
  await expect(form.fieldError('referenceImageURLs')).toHaveCount(0);
  await expect(form.generate).toBeEnabled();
});
