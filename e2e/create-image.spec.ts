// Create image: the form follows contract/rules live — per-model fields, reference limits, imagec-2 compression, Generate's reason.
import { AppShellPage } from './pages/app-shell-page.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

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

  // A bad URL is flagged on its own row.
  await form.addReferenceUrls(['not a url']);
  await expect(form.listItems('referenceImageURLs').last()).toContainText('must be a public http(s) image URL');
  await expect(form.generate).toBeDisabled();
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
  await expect(form.fieldError('outputCompression')).toContainText('from 0 to 100');
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
  await expect(shell.queueDock).toBeVisible();
  await expect(shell.queueDock.getByTestId('queue-item').first()).toContainText('a lighthouse at dusk');
  const job = form.root.getByTestId('result-job').first();
  await expect(job).toContainText('a lighthouse at dusk');
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  await expect(job.getByTestId('result-image')).toHaveCount(2);
  await expect(shell.jobsInFlight).toHaveText('No jobs running');
  await screenshotBothSchemes(page, 'create-image-results');
});

test('presets are browsed by category, searched, picked and cleared', async ({ page }) => {
  const form = new CreateImagePage(page);
  const dialog = page.getByTestId('preset-dialog');
  await form.field('preset').getByRole('button', { name: 'Choose a preset…' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { level: 4 }).first()).toBeVisible();
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
  await form.field('preset').getByRole('button', { name: 'Clear preset' }).click();
  await expect(form.field('preset')).toContainText('Choose a preset…');
});

for (const model of ['imagea-2', 'imagec-2']) {
  test(`a generation with ${model} ends with its image`, async ({ page }) => {
    const form = new CreateImagePage(page);
    await form.chooseModel(model);
    await form.prompt.fill(`a teapot by ${model}`);
    await form.generate.click();
    const job = form.root.getByTestId('result-job').first();
    await expect(job).toContainText(`a teapot by ${model}`);
    await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
    await expect(job.getByTestId('result-image')).toHaveCount(1);
  });
}

test('screenshots of Create image with problems and options', async ({ page }) => {
  const form = new CreateImagePage(page);
  await form.chooseModel('imagea');
  await form.prompt.fill('a lighthouse at dusk, long exposure, teal and orange');
  await form.addReferenceUrls(refs(4));
  await screenshotBothSchemes(page, 'create-image-problems');
  await form.chooseModel('imagec-2');
  await form.root.getByTestId('section-options').scrollIntoViewIfNeeded();
  await screenshotBothSchemes(page, 'create-image-imagec');
});
