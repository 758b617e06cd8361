// Screens of Create image, Create video and the queue at 1280×800 and 1024×640, light and dark, as a
// person sees them, for the README: written to docs/screens/ (or ATELIER_SCREENS_DIR) as palette PNGs
// small enough to commit. Run by `npm run docs:screens`, outside the test run.
import type { Page } from '@playwright/test';
import { shootDocsScreens } from './docs-shots.ts';
import { AppShellPage } from '../pages/app-shell-page.ts';
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { generateAndWait } from '../pages/contract-client.ts';
import { CreateImagePage } from '../pages/create-image-page.ts';
import { CreateVideoPage } from '../pages/create-video-page.ts';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
] as const;

const shoot = (page: Page, name: string) => shootDocsScreens(page, name, SIZES);

test('screens of Create image, Create video and the queue', async ({ page, demoApp }) => {
  test.setTimeout(180_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await generateAndWait(page, [
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a lighthouse at dusk, long exposure', numImages: 2 } },
    { kind: 'image', body: { modelID: 'imagec-2', prompt: 'a ceramic teapot on linen', aspectRatio: '4:3' } },
  ]);
  await page.reload();

  await shell.goTo('create-image');
  const image = new CreateImagePage(page);
  await image.chooseModel('imagec-2');
  await image.prompt.fill('a ceramic teapot on linen, soft window light');
  await image.pickSegment('aspectRatio', '4:3');
  await expect(image.root.getByTestId('result-image').first()).toBeVisible({ timeout: 20_000 });
  await shoot(page, 'create-image');

  await shell.goTo('create-video');
  const video = new CreateVideoPage(page);
  await video.chooseModel('videob-2.0');
  await video.prompt.fill('slow waves on a pier at dawn');
  await shoot(page, 'create-video');

  // The queue: a few jobs on their way, the list opened on demand.
  await shell.goTo('create-image');
  for (const prompt of ['a red bicycle', 'a paper boat', 'a kite over the sea']) {
    await image.prompt.fill(prompt);
    await image.generate.click();
  }
  await expect(page.getByTestId('pending-send').first()).toBeVisible();
  await shell.jobsInFlight.click();
  await expect(shell.queueDock.getByTestId('queue-item').first()).toBeVisible({ timeout: 10_000 });
  await shoot(page, 'queue');
});
