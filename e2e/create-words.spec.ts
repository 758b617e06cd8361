// Errors in the form's own words: no field path, API name or raw model id on screen in Create; every
// field error names its on-screen label; a submit attempt shows every problem and focuses the first.
import type { Locator } from '@playwright/test';
import { PUBLIC_IMAGE_MODEL_IDS, VIDEO_MODEL_IDS } from '../src-main/contract/rules/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { CreateVideoPage } from './pages/create-video-page.ts';

const DEVELOPER_WORDS = /options\.|modelID|imageSize|\bon imagea/;

/** Every shown field error contains the label of its field. */
async function expectErrorsNameTheirLabels(root: Locator): Promise<number> {
  const fields = root.locator('.field').filter({ has: root.page().locator('[data-role="field-error"]') });
  const count = await fields.count();
  for (let i = 0; i < count; i++) {
    const field = fields.nth(i);
    const label = (await field.locator('.label').first().innerText()).trim();
    const error = await field.locator('[data-role="field-error"]').first().innerText();
    expect(error.toLowerCase(), `the error of "${label}"`).toContain(label.toLowerCase());
  }
  return count;
}

test.beforeEach(async ({ page, demoApp }) => {
  await new AppShellPage(page).open(demoApp.url);
});

test('Create image speaks the words of the screen, for every model and every error', async ({ page }) => {
  await page.getByTestId('nav-create-image').click();
  const form = new CreateImagePage(page);
  for (const id of PUBLIC_IMAGE_MODEL_IDS) {
    await form.chooseModel(id);
    await expect(form.root).not.toContainText(DEVELOPER_WORDS, { useInnerText: true });
  }
  // A submit attempt on an untouched form: every problem shows and focus goes to the first one.
  await form.prompt.focus();
  await form.prompt.blur();
  await form.root.getByTestId('section-options').getByRole('radio').first().focus();
  await page.keyboard.press('Control+Enter');
  await expect(form.prompt).toBeFocused();
  await expect(form.fieldError('prompt')).toHaveText('Prompt is required for Image C 2 (a preset alone is not enough)');

  await form.chooseModel('imagec-2');
  await form.field('outputCompression').getByRole('textbox').fill('150');
  await expect(form.fieldError('outputCompression')).toHaveText(
    'JPEG compression must be a whole number 0–100; you entered 150',
  );
  await form.chooseModel('imagea');
  await form.addReferenceUrls([
    'https://x.test/1.png',
    'https://x.test/2.png',
    'https://x.test/3.png',
    'https://x.test/4.png',
  ]);
  await expect(form.fieldError('referenceImageURLs')).toHaveText(
    'Image A takes at most 3 reference images; you added 4',
  );
  // Text that is not a link is refused on entry, in the field's own words, beside the limit.
  await form.addReferenceUrls(['not a link']);
  await expect(form.fieldError('referenceImageURLs')).toContainText(
    '“not a link” is not a web address, so it was not added to Reference images',
  );
  await expect(form.fieldError('referenceImageURLs')).toContainText('at most 3 reference images');
  expect(await expectErrorsNameTheirLabels(form.root)).toBeGreaterThanOrEqual(2);
  await expect(form.root).not.toContainText(DEVELOPER_WORDS, { useInnerText: true });
  await expect(form.generateBlocked).not.toContainText(DEVELOPER_WORDS, { useInnerText: true });
  // The raw id is there for who needs it, behind Details.
  const details = form.root.getByTestId('model-details');
  await expect(details).not.toContainText('imagea', { useInnerText: true });
  await details.getByText('Details').click();
  await expect(details).toContainText('imagea', { useInnerText: true });
});

test('Create video speaks the words of the screen, for every model and every error', async ({ page }) => {
  await page.getByTestId('nav-create-video').click();
  const form = new CreateVideoPage(page);
  for (const id of VIDEO_MODEL_IDS) {
    await form.chooseModel(id);
    await expect(form.root).not.toContainText(DEVELOPER_WORDS, { useInnerText: true });
    await expect(form.root).not.toContainText(/aspectRatio|generateAudio|\bRatio\b/, { useInnerText: true });
  }
  await form.chooseModel('videob-1.5-pro');
  await form.prompt.fill('a paper plane');
  await form.addReferenceImage('https://x.test/a.png', 'first_frame');
  await form.addReferenceImage('https://x.test/b.png', 'first_frame');
  await expect(form.fieldError('referenceImages')).toContainText('at most 1 first frame');
  await form.chooseModel('videoa-3.1');
  await form.pickSegment('duration', '4 s');
  await form.addReferenceImage('https://x.test/c.png', 'reference_image');
  await expect(form.fieldError('duration')).toContainText('Duration must be 8 s when a reference image is used');
  expect(await expectErrorsNameTheirLabels(form.root)).toBeGreaterThanOrEqual(2);
  await expect(form.root).not.toContainText(DEVELOPER_WORDS, { useInnerText: true });
});
