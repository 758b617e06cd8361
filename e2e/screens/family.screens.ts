// Pictures of the viewer's Family section (issue 32 item 4) for the docs (`npm run docs:screens`,
// outside the test run): a result with its upscale and a video made from it as the first frame, at
// 1920×1080 and 1024×640, light and dark.
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { AssetViewPage } from '../pages/asset-view-page.ts';
import { generateAndWait, invokeInPage } from '../pages/contract-client.ts';
import { LibraryPage } from '../pages/library-page.ts';
import { screenshotBothSchemes } from '../pages/screenshots.ts';

const PROMPT = 'a glass greenhouse in morning fog';

test('the family tree in the viewer', async ({ page, demoApp }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(demoApp.url);
  await generateAndWait(page, [{ kind: 'image', body: { modelID: 'imagea', prompt: PROMPT, aspectRatio: '3:2' } }]);
  const { items } = await invokeInPage<{ items: { id: string; url: string; prompt: string | null }[] }>(
    page,
    'assets:list',
    { filter: { kind: 'image', query: 'glass greenhouse' } },
  );
  const image = items.find((item) => item.prompt === PROMPT);
  if (!image) throw new Error('no image');
  await invokeInPage(page, 'jobs:submit', { kind: 'upscale', body: { imageID: image.id } });
  await generateAndWait(
    page,
    [
      {
        kind: 'video',
        body: {
          modelID: 'videoa-3.1',
          prompt: 'fog lifts from the greenhouse',
          referenceImages: [{ url: image.url, role: 'first_frame' }],
        },
      },
    ],
    90_000,
  );
  const library = new LibraryPage(page);
  await library.open();
  const view = new AssetViewPage(page);
  await library.tile(image.id).dispatchEvent('dblclick');
  await expect(view.root).toHaveAttribute('data-asset-id', image.id);
  if ((await view.panel.getAttribute('hidden')) !== null) await view.root.getByTestId('asset-details-toggle').click();
  const family = view.root.getByRole('region', { name: 'Family' });
  await expect(family.getByRole('list', { name: 'Upscales' }).getByRole('button')).toHaveCount(1, { timeout: 60_000 });
  await expect(family.getByRole('list', { name: 'Videos made from it' }).getByRole('button')).toHaveCount(1);
  await family.scrollIntoViewIfNeeded();
  await screenshotBothSchemes(page, 'family-tree-1920x1080');
  await page.setViewportSize({ width: 1024, height: 640 });
  await family.scrollIntoViewIfNeeded();
  await screenshotBothSchemes(page, 'family-tree-1024x640');
});
