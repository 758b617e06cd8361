// Library: search by a prompt word, multi-select and bulk export, both deletes, the asset view's keyboard
// path, screenshots; and a seeded library of 50,000 assets scrolled end to end.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { repoRoot, startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { CreateVideoPage } from './pages/create-video-page.ts';
import { generateAndWait, invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

test.describe('a demo library', () => {
  let app: RunningApp;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    app = await startBrowserModeApp(['--demo']);
    const page = await browser.newPage();
    await page.goto(app.url);
    await generateAndWait(page, [
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a zebra grazing in a misty meadow', numImages: 2 } },
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a copper teapot on a marble table', numImages: 2 } },
      { kind: 'image', body: { modelID: 'imageb', prompt: 'a lighthouse in a winter storm', numImages: 2 } },
    ]);
    // Auto-download keeps every output offline: wait for the copies, so export has files to copy.
    await expect
      .poll(async () => (await invokeInPage<{ offline: number }>(page, 'assets:counts', {})).offline, {
        timeout: 30_000,
      })
      .toBe(6);
    await page.close();
  });

  test.afterAll(async () => {
    await app?.stop();
  });

  test.beforeEach(async ({ page }) => {
    await page.goto(app.url);
    await new LibraryPage(page).open();
  });

  test('search finds an asset by a word of its prompt, as you type', async ({ page }) => {
    const library = new LibraryPage(page);
    await expect(library.tiles).toHaveCount(6);
    await library.search.pressSequentially('zeb');
    await expect(library.tiles).toHaveCount(2);
    for (const label of await library.tiles.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))) {
      expect(label).toContain('zebra');
    }
    await expect(library.total).toHaveText('2 matches');
    await library.search.fill('teapot marble');
    await expect(library.tiles).toHaveCount(2);
    await library.search.fill('unicorn');
    await expect(library.empty).toContainText('Nothing matches “unicorn”');
    await library.search.fill('');
    await expect(library.tiles).toHaveCount(6);
  });

  test('click, shift-click, Ctrl-click, Ctrl-A and Esc select; the selection exports with JSON sidecars', async ({
    page,
  }) => {
    const library = new LibraryPage(page);
    await expect(library.tiles).toHaveCount(6);
    await library.tiles.nth(0).click();
    await expect(library.selectionCount).toHaveText('1 selected');
    await library.tiles.nth(2).click({ modifiers: ['Shift'] });
    await expect(library.selectionCount).toHaveText('3 selected');
    await library.tiles.nth(1).click({ modifiers: ['ControlOrMeta'] });
    await expect(library.selectionCount).toHaveText('2 selected');
    await expect(library.tiles.nth(1)).toHaveAttribute('aria-selected', 'false');
    await page.keyboard.press('ControlOrMeta+a');
    await expect(library.selectionCount).toHaveText('6 selected');
    await page.keyboard.press('Escape');
    await expect(library.selectionBar).toHaveCount(0);

    await library.tiles.nth(3).click();
    await library.tiles.nth(5).click({ modifiers: ['Shift'] });
    await expect(library.selectionCount).toHaveText('3 selected');
    await screenshotBothSchemes(page, 'library-selection');

    const folder = mkdtempSync(join(tmpdir(), 'atelier-export-'));
    try {
      await library.bulk('export');
      await expect(library.exportDialog).toBeVisible();
      await library.exportFolder.fill('not/a/full/path');
      await library.exportDialog.getByTestId('export-confirm').click();
      await expect(library.exportDialog).toContainText('Give a full path');
      await library.exportFolder.fill(folder);
      await library.exportDialog.getByTestId('export-confirm').click();
      await expect(library.exportDialog).toHaveCount(0);
      await expect(page.getByTestId('toast').filter({ hasText: 'Exported 3 files' })).toBeVisible();
      const files = readdirSync(folder);
      const sidecars = files.filter((name) => name.endsWith('.json'));
      expect(files.length - sidecars.length).toBe(3);
      expect(sidecars).toHaveLength(3);
      const sidecar = JSON.parse(readFileSync(join(folder, sidecars[0] ?? ''), 'utf8')) as Record<string, unknown>;
      expect(JSON.stringify(sidecar)).toMatch(/prompt/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('the asset view: Enter opens, arrows step, Tab stays inside, Esc closes and gives focus back', async ({
    page,
  }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    await expect(library.tiles).toHaveCount(6);
    await library.grid.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await expect(view.root).toBeVisible();
    await expect(view.position).toHaveText('1 of 6');
    await expect(view.image).toBeVisible();
    const first = await view.prompt.textContent();
    await page.keyboard.press('ArrowRight');
    await expect(view.position).toHaveText('2 of 6');
    await page.keyboard.press('ArrowRight');
    await expect(view.position).toHaveText('3 of 6');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(view.position).toHaveText('1 of 6');
    await expect(view.prompt).toHaveText(first ?? '');
    // Left of the first does nothing.
    await page.keyboard.press('ArrowLeft');
    await expect(view.position).toHaveText('1 of 6');

    for (let i = 0; i < 25; i++) {
      await page.keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="asset-view"]'))).toBe(true);
    }
    await expect(view.root).toContainText('Model');
    await screenshotBothSchemes(page, 'asset-view-image');

    await page.keyboard.press('Escape');
    await expect(view.root).toHaveCount(0);
    await expect(library.grid).toBeFocused();
  });

  test("remix reopens Create with the exact request; an image becomes a video's first frame", async ({ page }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    await library.search.fill('teapot');
    await expect(library.tiles).toHaveCount(2);
    await library.tiles.first().dblclick();
    await view.action('remix').click();
    const createImage = new CreateImagePage(page);
    await expect(createImage.root).toBeVisible();
    await expect(createImage.prompt).toHaveValue('a copper teapot on a marble table');
    await expect(createImage.model).toHaveValue('imagea');

    await library.open();
    await library.search.fill('teapot');
    await library.tiles.first().dblclick();
    await view.action('firstFrame').click();
    const createVideo = new CreateVideoPage(page);
    await expect(createVideo.root).toBeVisible();
    const references = createVideo.root.getByTestId('field-referenceImages');
    await expect(references).toContainText('/media/');
    await expect(references.getByTestId('reference-role').last()).toHaveValue('first_frame');
  });

  test('remove local copy and delete from the service are two different, confirmed deletes', async ({ page }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    await library.search.fill('lighthouse');
    await expect(library.tiles).toHaveCount(2);
    const [first = '', second = ''] = await library.tiles.evaluateAll((els) =>
      els.map((el) => el.getAttribute('data-asset-id') ?? ''),
    );

    // Remove the local copy of the first, from the selection bar: it stays on the service and in the library.
    await library.tile(first).click();
    await library.bulk('remove-local');
    const removeDialog = library.confirmDialog('remove-local');
    await expect(removeDialog).toContainText('Remove the local copy?');
    await expect(removeDialog).toContainText('stays on the service');
    await screenshotBothSchemes(page, 'library-confirm-remove-local');
    await removeDialog.getByTestId('confirm-delete').click();
    await expect(library.tile(first)).toHaveAttribute('data-local', 'false');
    await expect(library.tiles).toHaveCount(2);
    await page.keyboard.press('Escape');

    // Delete it from the service, from the asset view: with no local copy left, it leaves the library.
    await library.tile(first).dblclick();
    await expect(view.root).toBeVisible();
    await view.action('deleteRemote').click();
    const deleteDialog = library.confirmDialog('delete-remote');
    await expect(deleteDialog).toContainText('Delete it from the service?');
    await expect(deleteDialog).toContainText('permanently deletes');
    await expect(deleteDialog).toContainText('cannot be undone');
    await screenshotBothSchemes(page, 'asset-view-confirm-delete-remote');
    await deleteDialog.getByTestId('confirm-delete').click();
    await expect(library.tile(first)).toHaveCount(0, { timeout: 10_000 });
    await expect(view.root).toHaveCount(0);

    // Deleting the second from the service keeps its downloaded file: it stays, marked as gone from the service.
    await library.tile(second).dblclick();
    await view.action('deleteRemote').click();
    await library.confirmDialog('delete-remote').getByTestId('confirm-delete').click();
    await expect(view.root).toContainText('Gone from service');
    await expect(view.action('deleteRemote')).toBeDisabled();
    await expect(view.action('export')).toBeEnabled();
    await page.keyboard.press('Escape');
    await expect(library.tiles).toHaveCount(1);

    // The service agrees after a refresh: only the second's local copy is left of the two.
    await page.getByTestId('library-refresh').click();
    await expect(page.getByTestId('library-refresh')).toBeEnabled();
    await expect(library.tiles).toHaveCount(1);
    await expect(library.tile(second)).toBeVisible();
  });

  test('screenshots of the library and its empty search', async ({ page }) => {
    const library = new LibraryPage(page);
    await expect(library.tiles).toHaveCount(5);
    await screenshotBothSchemes(page, 'library');
    await library.search.fill('nothing-like-this');
    await expect(library.empty).toBeVisible();
    await screenshotBothSchemes(page, 'library-no-match');
  });

  test('upscale from the asset view: the job is tracked and its output links back to its source', async ({ page }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    // The lighthouse images were deleted from the service by an earlier test; the zebras are still there.
    const [source] = await invokeInPage<{ id: string }[]>(page, 'assets:search', { query: 'zebra' });
    expect(source, 'a zebra image to upscale').toBeDefined();
    await library.search.fill('zebra');
    await library.tile(source?.id ?? '').dblclick();
    await view.action('upscale').click();
    await expect
      .poll(
        async () => {
          const jobs = await invokeInPage<{ kind: string; state: string }[]>(page, 'jobs:list', {});
          return jobs.filter((job) => job.kind === 'upscale').map((job) => job.state);
        },
        { timeout: 45_000 },
      )
      .toContain('succeeded');
    await expect
      .poll(
        async () => {
          const page1 = await invokeInPage<{ items: { sourceAssetId: string | null }[] }>(page, 'assets:list', {});
          return page1.items.filter((item) => item.sourceAssetId === source?.id).length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
  });
});

test.describe('a seeded library of 50,000 assets', () => {
  const DEAD_SERVICE = 'http://127.0.0.1:9';
  const KEY = 'seed-key';
  let app: RunningApp;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
      const seeded = spawnSync(
        process.execPath,
        [join(repoRoot, 'e2e/fixtures/seed-library.ts'), dataDir, DEAD_SERVICE, KEY, '50000'],
        { encoding: 'utf8' },
      );
      if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
      // The account is the seeded one: this address with this key (nothing listens there: no sync changes it).
      writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl: DEAD_SERVICE } }));
    });
  });

  test.afterAll(async () => {
    await app?.stop();
  });

  test('scrolls from the first to the last of 50,000 without errors', async ({ page }) => {
    test.setTimeout(180_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(app.url);
    const library = new LibraryPage(page);
    await library.open();
    await expect(library.total).toHaveText('50,000 items');
    await expect(library.tiles.first()).toBeVisible();
    // Only what is in view is in the DOM.
    expect(await library.tiles.count()).toBeLessThan(200);
    await screenshotBothSchemes(page, 'library-50k');

    await library.scrollToEnd();
    await expect(library.grid).toHaveAttribute('data-loaded', '50000');
    await expect(library.end).toHaveText('50,000 items · end of the list');
    expect(await library.tiles.count()).toBeLessThan(200);
    // The oldest seeded asset sits at the very end (newest first).
    const last = await library.tiles.last().getAttribute('data-asset-id');
    expect(last).toMatch(/^seed-(img|vid)-\d+$/);
    expect(errors).toEqual([]);
  });
});
