// Compare that explains: two results side by side with each one's prompt and settings under it, the
// differences marked, at 1920×1080 and 1024×640, light and dark, written to docs/screens/ (or
// ATELIER_SCREENS_DIR) as palette PNGs. Run by `npm run docs:screens`, outside the test run.
import type { Page } from '@playwright/test';
import { LARGE_AND_SMALL, shootDocsScreens } from './docs-shots.ts';
import { AppShellPage } from '../pages/app-shell-page.ts';
import { demoTest as test, expect } from '../pages/app-fixtures.ts';
import { generateAndWait, invokeInPage } from '../pages/contract-client.ts';
import { LibraryPage } from '../pages/library-page.ts';

const shoot = (page: Page, name: string) => shootDocsScreens(page, name);

test('screens of compare with its prompts and settings', async ({ page, demoApp }) => {
  test.setTimeout(180_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await generateAndWait(page, [
    { kind: 'image', body: { modelID: 'imagea', prompt: 'a lighthouse on a cliff, at dawn, oil painting' } },
    {
      kind: 'image',
      body: {
        modelID: 'imagec-2',
        prompt: 'a white lighthouse on a cliff at dusk, oil painting, stormy sky',
        aspectRatio: '16:9',
        options: { imagec: { quality: 'high' } },
      },
    },
  ]);
  const { items } = await invokeInPage<{ items: { id: string; prompt: string | null }[] }>(page, 'assets:list', {});
  const first = items.find((item) => item.prompt?.startsWith('a lighthouse'));
  const second = items.find((item) => item.prompt?.startsWith('a white lighthouse'));
  await page.setViewportSize(LARGE_AND_SMALL[0]!);
  const library = new LibraryPage(page);
  await shell.goTo('library');
  await library.search.fill('lighthouse cliff');
  await expect(library.tiles).toHaveCount(2, { timeout: 30_000 });
  await library.tile(first?.id ?? '').click();
  await library.tile(second?.id ?? '').click({ modifiers: ['Control'] });
  await page.getByTestId('bulk-compare').click();
  const compare = page.getByRole('dialog', { name: 'Compare 2 items' });
  await compare.getByTestId('compare-mode-side').click();
  await expect(
    compare.getByRole('region', { name: 'Right: prompt and settings' }).getByRole('insertion').first(),
  ).toBeVisible();
  await expect
    .poll(
      () =>
        compare
          .getByTestId('compare-image')
          .evaluateAll((imgs) =>
            imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
          ),
      { timeout: 30_000 },
    )
    .toBe(true);
  await shoot(page, 'compare-diff');
});
