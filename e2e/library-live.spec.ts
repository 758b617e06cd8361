// The Library follows the core's events without a reload: the header's counts, the grid and the
// viewer's actions never disagree. A result downloaded while the Offline filter is on joins the grid
// as the header counts it; after "Delete from the service" the viewer stops offering what needs the service.
import { expect, test } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { JobsPage } from './pages/jobs-page.ts';
import { LibraryPage } from './pages/library-page.ts';

interface AssetLike {
  id: string;
  kind: 'image' | 'video';
  prompt: string;
  file: { state: string };
}

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  app = await demoAppWith(
    browser,
    [
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a red barn under falling snow', numImages: 3 } },
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a blue tram in the rain', numImages: 3 } },
    ],
    { offline: 6 },
  );
});

test.afterAll(async () => {
  await app?.stop();
});

test('a result downloaded while the Offline filter is on joins the grid as the header counts it', async ({ page }) => {
  await page.goto(app.url);
  const first = (await invokeInPage<{ items: AssetLike[] }>(page, 'assets:list', {})).items.find((a) =>
    a.prompt.includes('red barn'),
  );
  if (!first) throw new Error('no barn image');
  const ref = { kind: first.kind, id: first.id };
  // One image back to remote-only, so a download can happen while the filter is on.
  await invokeInPage(page, 'library:remove-local', { assets: [ref] });
  const offline = (await invokeInPage<{ offline: number }>(page, 'assets:counts', {})).offline;

  const library = new LibraryPage(page);
  await library.open();
  await page.getByTestId('filter-offline').click();
  await expect(page.getByTestId('filter-offline')).toHaveAttribute('aria-pressed', 'true');
  await expect(library.tiles).toHaveCount(offline);
  await expect(library.total).toHaveText(`${offline} items`);

  // Downloaded meanwhile (not from this view): the header and the grid both show it, without a reload.
  await invokeInPage(page, 'library:download', { assets: [ref] });
  await expect(library.total).toHaveText(`${offline + 1} items`, { timeout: 15_000 });
  await expect(library.tiles).toHaveCount(offline + 1, { timeout: 3_000 });
  await expect(library.tile(first.id)).toBeVisible();

  // And the other way: its copy removed meanwhile, it leaves both.
  await invokeInPage(page, 'library:remove-local', { assets: [ref] });
  await expect(library.total).toHaveText(`${offline} items`, { timeout: 15_000 });
  await expect(library.tiles).toHaveCount(offline, { timeout: 3_000 });
});

test('after "Delete from the service" the viewer no longer offers Upscale or the delete', async ({ page }) => {
  await page.goto(app.url);
  const barns = (await invokeInPage<{ items: AssetLike[] }>(page, 'assets:list', {})).items.filter(
    (a) => a.prompt.includes('red barn') && a.file.state === 'downloaded',
  );
  const target = barns[0];
  if (!target) throw new Error('no downloaded barn image');
  const library = new LibraryPage(page);
  const view = new AssetViewPage(page);
  await library.open();
  await library.tile(target.id).dblclick();
  await expect(view.root).toBeVisible();
  await expect(view.action('upscale')).toBeEnabled();
  await view.action('deleteRemote').click();
  await library.confirmDialog('delete-remote').getByTestId('confirm-delete').click();
  // At once, not "after a while": the file stays, what needs the service is refused with its reason.
  await expect(view.action('deleteRemote')).toBeDisabled({ timeout: 1_000 });
  await expect(view.action('upscale')).toBeDisabled({ timeout: 1_000 });
  await expect(view.root).toContainText('Gone from service');
  // Stepping away and back shows the same truth (the grid's copy was patched too).
  await page.keyboard.press('Escape');
  await library.tile(target.id).dblclick();
  await expect(view.action('upscale')).toBeDisabled();
  await expect(view.action('deleteRemote')).toBeDisabled();
});

test("a job's outputs in the viewer: after one is deleted from the service, stepping back to it shows it gone", async ({
  page,
}) => {
  await page.goto(app.url);
  const trams = (await invokeInPage<{ items: AssetLike[] }>(page, 'assets:list', {})).items.filter((a) =>
    a.prompt.includes('blue tram'),
  );
  const jobs = new JobsPage(page);
  const view = new AssetViewPage(page);
  await jobs.open();
  await jobs.rows.filter({ hasText: 'a blue tram in the rain' }).getByTestId('job-output').first().click();
  await expect(view.root).toBeVisible();
  const shown = (await view.root.getAttribute('data-asset-id')) ?? '';
  expect(
    trams.map((a) => a.id),
    'the viewer shows one of the tram images',
  ).toContain(shown);
  await expect(view.action('upscale')).toBeEnabled();
  await view.action('deleteRemote').click();
  await page.getByTestId('confirm-delete-remote').getByTestId('confirm-delete').click();
  await expect(view.action('upscale')).toBeDisabled({ timeout: 1_000 });
  const strip = view.root.getByTestId('filmstrip-item');
  await expect(strip).toHaveCount(3);
  await strip.nth(1).click();
  await expect(view.root).not.toHaveAttribute('data-asset-id', shown);
  await strip.nth(0).click();
  await expect(view.root).toHaveAttribute('data-asset-id', shown);
  await expect(view.action('upscale')).toBeDisabled({ timeout: 1_000 });
  await expect(view.action('deleteRemote')).toBeDisabled({ timeout: 1_000 });
});
