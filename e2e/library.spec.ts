// Library: search by a prompt word, multi-select and bulk export, the asset view's keyboard path, an image as
// a video's first frame, screenshots (on six images no test changes); both deletes, upscale with its lineage, and
// remix of an image and of a video back into Create (each on assets of its own); and a seeded library of 50,000
// assets scrolled end to end. No test relies on another having run before it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './fixtures/page-errors.ts';
import { repoRoot, startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import type { CreateFormPage } from './pages/create-form.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { CreateVideoPage } from './pages/create-video-page.ts';
import { invokeInPage, recordChannelCalls } from './pages/contract-client.ts';
import { JobsPage } from './pages/jobs-page.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

interface JobLike {
  localId: number;
  kind: string;
  state: string;
  request: Record<string, unknown>;
  sourceImageId: string | null;
  outputs: { kind: string; id: string }[];
}

/** The jobs whose request had this prompt, oldest first. */
async function jobsWithPrompt(page: Page, prompt: string): Promise<JobLike[]> {
  const jobs = await invokeInPage<JobLike[]>(page, 'jobs:list', { limit: 200 });
  return jobs.filter((job) => job.request['prompt'] === prompt).sort((a, b) => a.localId - b.localId);
}

/** The ids of what the first job with this prompt made. */
async function outputIds(page: Page, prompt: string): Promise<string[]> {
  const [job] = await jobsWithPrompt(page, prompt);
  return job?.outputs.map((output) => output.id) ?? [];
}

test.describe('a demo library of six images that no test changes', () => {
  let app: RunningApp;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    // Every output downloaded, so export has files to copy.
    app = await demoAppWith(
      browser,
      [
        { kind: 'image', body: { modelID: 'imagea', prompt: 'a zebra grazing in a misty meadow', numImages: 2 } },
        { kind: 'image', body: { modelID: 'imagea', prompt: 'a copper teapot on a marble table', numImages: 2 } },
        { kind: 'image', body: { modelID: 'imageb', prompt: 'a lighthouse in a winter storm', numImages: 2 } },
      ],
      { offline: 6 },
    );
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

  test("an image becomes a video's first frame", async ({ page }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    await library.search.fill('teapot');
    await expect(library.tiles).toHaveCount(2);
    await library.tiles.first().dblclick();
    await view.action('firstFrame').click();
    const createVideo = new CreateVideoPage(page);
    await expect(createVideo.root).toBeVisible();
    const references = createVideo.root.getByTestId('field-referenceImages');
    await expect(references).toContainText('/media/');
    await expect(references.getByTestId('reference-role').last()).toHaveValue('first_frame');
  });

  test('screenshots of the library and its empty search', async ({ page }) => {
    const library = new LibraryPage(page);
    await expect(library.tiles).toHaveCount(6);
    await screenshotBothSchemes(page, 'library');
    await library.search.fill('nothing-like-this');
    await expect(library.empty).toBeVisible();
    await screenshotBothSchemes(page, 'library-no-match');
  });
});

test.describe('a demo library where each test works on assets of its own', () => {
  let app: RunningApp;

  /** Each request is made for one test only; the tests find their assets by these prompts. */
  const WINDMILL = { modelID: 'imagea', prompt: 'a windmill on a foggy cliff', numImages: 2 };
  const FOX = { modelID: 'imagea', prompt: 'a red fox asleep in fresh snow' };
  const ICED_TEA = {
    modelID: 'imagec-2',
    prompt: 'a glass of iced tea on a sunny porch',
    numImages: 2,
    aspectRatio: '4:5',
    referenceImageURLs: ['https://images.example.com/porch-light.png'],
    options: { imagec: { imageSize: '1K', quality: 'high', background: 'opaque', outputFormat: 'png' } },
  };
  const LANTERN = {
    modelID: 'videob-2.0',
    prompt: 'a paper lantern drifting down a night river',
    numVideos: 2,
    referenceImages: [
      { url: 'https://images.example.com/lantern-first.png', role: 'first_frame' },
      { url: 'https://images.example.com/river-style.png', role: 'reference_image' },
    ],
    referenceVideos: [{ url: 'https://media.example.com/river-flow.mp4', role: 'reference_video' }],
    options: { videob: { resolution: '720p', ratio: '4:3', duration: 6, generateAudio: true, seed: 4242 } },
  };

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    app = await demoAppWith(
      browser,
      [
        { kind: 'image', body: WINDMILL },
        { kind: 'image', body: FOX },
        { kind: 'image', body: ICED_TEA },
        { kind: 'video', body: LANTERN },
      ],
      { timeoutMs: 90_000 },
    );
  });

  test.afterAll(async () => {
    await app?.stop();
  });

  test.beforeEach(async ({ page }) => {
    await page.goto(app.url);
    await new LibraryPage(page).open();
  });

  /** Generate from the reopened form, then check the new job sent exactly the request the asset was made by. */
  async function expectSameRequestSentAgain(page: Page, prompt: string, create: CreateFormPage): Promise<void> {
    await expect(create.generate).toBeEnabled();
    await create.generate.click();
    await expect.poll(async () => (await jobsWithPrompt(page, prompt)).length, { timeout: 15_000 }).toBe(2);
    const [original, remixed] = await jobsWithPrompt(page, prompt);
    expect(remixed?.request).toEqual(original?.request);
  }

  test('remove local copy and delete from the service are two different, confirmed deletes', async ({ page }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    // The local copies are made by auto-download: wait for them, so one can be removed and one kept.
    await expect
      .poll(
        async () =>
          (await invokeInPage<{ file: { state: string } }[]>(page, 'assets:search', { query: 'windmill' })).map(
            (asset) => asset.file.state,
          ),
        { timeout: 30_000 },
      )
      .toEqual(['downloaded', 'downloaded']);
    await library.search.fill('windmill');
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

  test('upscale from the asset view: the job shows in Jobs until it succeeds; its image says what it was upscaled from, and the source links to its upscale', async ({
    page,
  }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    const jobs = new JobsPage(page);
    const [source = ''] = await outputIds(page, FOX.prompt);
    await library.search.fill('fox');
    await library.tile(source).dblclick();
    await expect(view.root).toHaveAttribute('data-asset-id', source);
    await expect(view.upscaledFrom()).toHaveCount(0);
    await expect(view.upscaledVersion()).toHaveCount(0);
    await view.action('upscale').click();
    await expect(page.getByTestId('toast').filter({ hasText: `Upscale of “${FOX.prompt}” started` })).toBeVisible();
    await page.keyboard.press('Escape');

    // The Jobs view tracks it until it succeeds, then offers its output.
    await jobs.open();
    const row = jobs.rows.filter({ hasText: `Upscale of “${FOX.prompt}”` });
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
    await expect(
      jobs
        .section('recent')
        .getByTestId('job-row')
        .filter({ hasText: `Upscale of “${FOX.prompt}”` }),
    ).toHaveCount(1);
    await expect(row.getByTestId('job-output')).toHaveCount(1);
    await expect(row.getByTestId('job-output')).toBeEnabled();

    // The upscale, opened from its job, says what it was upscaled from; that link opens the source.
    await row.getByTestId('job-output').click();
    await expect(view.root).toBeVisible();
    const upscale = (await view.root.getAttribute('data-asset-id')) ?? '';
    expect(upscale).not.toBe(source);
    await expect(view.prompt).toHaveText(FOX.prompt);
    await expect(view.upscaledFrom()).toContainText('Upscaled from');
    // By name (the source's prompt), never by id (issue 31).
    await expect(view.upscaledFrom()).toContainText(FOX.prompt);
    await expect(view.upscaledFrom()).not.toContainText(source);
    await expect(view.upscaledFrom()).not.toContainText('not in the library');
    await expect(view.upscaledFrom().locator('img')).toHaveCount(1);
    await expect(view.action('remix')).toBeDisabled();
    await expect(view.action('remix')).toHaveAttribute('title', /An upscale has no prompt of its own/);
    await view.upscaledFrom().getByRole('button').click();
    await expect(view.root).toHaveAttribute('data-asset-id', source);
    await page.keyboard.press('Escape');

    // Once the library is refreshed, the source names its upscale and opens it.
    await library.open();
    await page.getByTestId('library-refresh').click();
    await expect(page.getByTestId('library-refresh')).toBeEnabled();
    await library.search.fill('fox');
    await library.tile(source).dblclick();
    await expect(view.root).toHaveAttribute('data-asset-id', source);
    await expect(view.upscaledVersion()).toContainText('Upscaled version');
    await expect(view.upscaledVersion()).toContainText(FOX.prompt);
    await expect(view.upscaledVersion()).not.toContainText(upscale);
    await expect(view.upscaledVersion()).not.toContainText('not in the library');
    await view.upscaledVersion().getByRole('button').click();
    await expect(view.root).toHaveAttribute('data-asset-id', upscale);
    await expect(view.upscaledFrom()).toContainText(FOX.prompt);

    // Beyond what is on screen: the core's job and library agree.
    const upscaleJobs = (await invokeInPage<JobLike[]>(page, 'jobs:list', {})).filter(
      (job) => job.kind === 'upscale' && job.sourceImageId === source,
    );
    expect(upscaleJobs.map((job) => ({ state: job.state, outputs: job.outputs.map((o) => o.id) }))).toEqual([
      { state: 'succeeded', outputs: [upscale] },
    ]);
    const listed = await invokeInPage<{ items: { id: string; sourceAssetId: string | null }[] }>(
      page,
      'assets:list',
      {},
    );
    expect(listed.items.filter((item) => item.sourceAssetId === source).map((item) => item.id)).toEqual([upscale]);
  });

  test('remix of an image reopens Create image with its exact request: model, prompt, count, aspect ratio, options and references', async ({
    page,
  }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    const [asset = ''] = await outputIds(page, ICED_TEA.prompt);
    await library.search.fill('iced tea');
    await library.tile(asset).dblclick();
    await view.action('remix').click();
    await expect(view.root).toHaveCount(0);

    const form = new CreateImagePage(page);
    await expect(form.root).toBeVisible();
    await expect(form.model).toHaveValue('imagec-2');
    await expect(form.prompt).toHaveValue(ICED_TEA.prompt);
    await expect(form.field('numImages').getByRole('radio', { name: '2', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(form.field('aspectRatio').getByRole('radio', { name: '4:5' })).toHaveAttribute('aria-checked', 'true');
    await expect(form.field('imageSize').getByRole('radio', { name: '1K', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(form.field('imageSize')).toContainText('Renders');
    await expect(form.field('quality').locator('select')).toHaveValue('high');
    await expect(form.field('background').getByRole('radio', { name: 'Opaque' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(form.field('outputFormat').getByRole('radio', { name: 'PNG' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    // Left to the service in the request, so left unset in the form.
    await expect(form.field('outputCompression').getByRole('textbox')).toHaveValue('');
    await expect(form.listItems('referenceImageURLs')).toHaveCount(1);
    await expect(form.listItems('referenceImageURLs')).toContainText('https://images.example.com/porch-light.png');
    await expectSameRequestSentAgain(page, ICED_TEA.prompt, form);
  });

  test('remix of a video reopens Create video with its model, prompt, count, options, seed and references with their roles', async ({
    page,
  }) => {
    const library = new LibraryPage(page);
    const view = new AssetViewPage(page);
    const [asset = ''] = await outputIds(page, LANTERN.prompt);
    await library.search.fill('lantern');
    await library.tile(asset).dblclick();
    await expect(view.action('remix')).toBeEnabled();
    await view.action('remix').click();
    await expect(view.root).toHaveCount(0);

    const form = new CreateVideoPage(page);
    await expect(form.root).toBeVisible();
    await expect(form.model).toHaveValue('videob-2.0');
    await expect(form.prompt).toHaveValue(LANTERN.prompt);
    await expect(form.field('numVideos').getByRole('radio', { name: '2', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(form.field('resolution').getByRole('radio', { name: '720p', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(form.field('ratio').getByRole('radio', { name: '4:3' })).toHaveAttribute('aria-checked', 'true');
    await expect(form.field('duration').getByRole('slider')).toHaveValue('6');
    await expect(form.field('generateAudio').getByRole('switch')).toHaveAttribute('aria-checked', 'true');
    await expect(form.field('returnLastFrame').getByRole('switch')).toHaveAttribute('aria-checked', 'false');
    // The seed comes back locked, so the same seed goes again.
    await expect(form.field('seed').getByRole('textbox')).toHaveValue('4242');
    await expect(form.root.getByRole('button', { name: 'Unlock seed' })).toHaveAttribute('aria-pressed', 'true');

    const images = form.listItems('referenceImages');
    await expect(images).toHaveCount(2);
    await expect(images.nth(0)).toContainText('https://images.example.com/lantern-first.png');
    await expect(images.nth(0).getByTestId('reference-role')).toHaveValue('first_frame');
    await expect(images.nth(1)).toContainText('https://images.example.com/river-style.png');
    await expect(images.nth(1).getByTestId('reference-role')).toHaveValue('reference_image');
    await expect(form.listItems('referenceVideos')).toHaveCount(1);
    await expect(form.listItems('referenceVideos')).toContainText('https://media.example.com/river-flow.mp4');
    await form.references.scrollIntoViewIfNeeded();
    await screenshotBothSchemes(page, 'create-video-remix');
    await expectSameRequestSentAgain(page, LANTERN.prompt, form);
  });
});

test.describe('a seeded library of 50,000 assets', () => {
  const DEAD_SERVICE = 'http://127.0.0.1:9';
  const KEY = 'seed-key';
  let app: RunningApp;
  /** Results only: the seed's uploads (training photos) live apart, under Uploads. */
  let results = 0;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
      const seeded = spawnSync(
        process.execPath,
        [join(repoRoot, 'e2e/fixtures/seed-library.ts'), dataDir, DEAD_SERVICE, KEY, '50000'],
        { encoding: 'utf8' },
      );
      if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
      results = 50_000 - (JSON.parse(seeded.stdout) as { uploaded: number }).uploaded;
      // The account is the seeded one: this address with this key (nothing listens there: no sync changes it).
      writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl: DEAD_SERVICE } }));
    });
  });

  test.afterAll(async () => {
    await app?.stop();
  });

  /** The Library of the seeded account, its first tiles shown. */
  async function openFirstScreen(page: Page): Promise<LibraryPage> {
    await page.goto(app.url);
    const library = new LibraryPage(page);
    await library.open();
    await expect(library.tiles.first()).toBeVisible();
    return library;
  }

  test('scrolls from the first to the last of 50,000 without errors', async ({ page }) => {
    test.setTimeout(180_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The seed writes database rows only: the files it records as downloaded are missing until the
    // start-up check (paced, longer than this scroll at 50,000) marks them so, and a video tile
    // without a poster asks for its file's first frame. Those 404s, and only those, are expected.
    const MISSING_SEEDED_FILE = /\/media\/(images|videos)\/seed-(img|vid)-\d+\.(jpg|mp4)$/;
    page.on('response', (response) => {
      if (response.status() >= 400 && !MISSING_SEEDED_FILE.test(response.url()))
        errors.push(`${response.status()} ${response.url()}`);
    });
    page.on('console', (message) => {
      const missing = /^Failed to load resource: .* 404 \(Not Found\)$/.test(message.text());
      if (message.type() === 'error' && !missing) errors.push(message.text());
    });
    await page.goto(app.url);
    const library = new LibraryPage(page);
    await library.open();
    const shown = results.toLocaleString('en-US');
    await expect(library.total).toHaveText(`${shown} items`);
    await expect(library.tiles.first()).toBeVisible();
    // Only what is in view is in the DOM.
    expect(await library.tiles.count()).toBeLessThan(200);
    await screenshotBothSchemes(page, 'library-50k');
    const firstId = await library.tiles.first().getAttribute('data-asset-id');

    await library.scrollToEnd();
    await expect(library.grid).toHaveAttribute('data-loaded', String(results));
    await expect(library.end).toHaveText(`${shown} items · end of the list`);
    expect(await library.tiles.count()).toBeLessThan(200);
    // The oldest seeded asset sits at the very end (newest first).
    const last = await library.tiles.last().getAttribute('data-asset-id');
    expect(last).toMatch(/^seed-(img|vid)-\d+$/);
    // Only the pages near the view are held; those let go come back when the view returns to them.
    const held = await library.heldItems();
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(5000);
    await library.grid.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(library.tiles.first()).toHaveAttribute('data-asset-id', firstId ?? '');
    expect(errors).toEqual([]);
  });

  test('Ctrl+A and a shift-click over 50,000 select 5,000, the most one action takes, and say so', async ({ page }) => {
    test.setTimeout(120_000);
    const calls = recordChannelCalls(page);
    const library = await openFirstScreen(page);
    const capped = page.getByTestId('toast').filter({ hasText: 'Selected 5,000: the most one action takes at once.' });

    await library.grid.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await expect(library.selectionCount).toHaveText('5,000 selected');
    await expect(capped).toHaveCount(1);
    // Ten pages of 500 fetched, not the whole list's hundred.
    expect(calls.filter((channel) => channel === 'assets:list').length).toBeLessThan(20);

    // A shift-click from the first tile to the end: 5,000 from the anchor too.
    await page.keyboard.press('Escape');
    await library.tiles.first().click();
    await expect(library.selectionCount).toHaveText('1 selected');
    await library.scrollToEnd(60_000);
    await expect(capped).toHaveCount(0, { timeout: 10_000 }); // the first notice has faded
    await library.tiles.last().click({ modifiers: ['Shift'] });
    await expect(library.selectionCount).toHaveText('5,000 selected');
    await expect(capped).toHaveCount(1);
  });

  test('End goes to the last of 50,000 from the first screen, before the list is mapped', async ({ page }) => {
    test.setTimeout(60_000);
    const calls = recordChannelCalls(page);
    const library = await openFirstScreen(page);
    await library.grid.focus();
    await page.keyboard.press('ArrowRight');
    // At once: the background map starts 1.5 s after the first page; only the first 500 are read.
    expect(calls.filter((channel) => channel === 'assets:layout')).toEqual([]);
    await page.keyboard.press('End');
    await expect(library.end).toHaveText(`${results.toLocaleString('en-US')} items · end of the list`);
    await expect(library.grid).toHaveAttribute('aria-activedescendant', new RegExp(`-${results - 1}$`));
  });

  test('jumps to the end of 50,000 asking only for the pages it shows', async ({ page }) => {
    test.setTimeout(120_000);
    // Every channel call the page makes, by name (the browser-mode bridge is a WebSocket).
    const calls = recordChannelCalls(page);
    const library = await openFirstScreen(page);
    const oldest = (
      await invokeInPage<{ items: { id: string }[] }>(page, 'assets:list', {
        filter: { origin: 'generated' },
        sort: 'oldest',
        limit: 1,
      })
    ).items[0]?.id;

    await library.scrollToEnd(60_000);
    await expect(library.end).toHaveText(`${results.toLocaleString('en-US')} items · end of the list`);
    await expect(library.tiles.last()).toHaveAttribute('data-asset-id', oldest ?? '');
    // The list was mapped (shapes and cursors, 50,000 a call) and only the pages near the end fetched:
    // reading it in order would take a hundred pages of 500.
    const pages = calls.filter((channel) => channel === 'assets:list').length;
    expect(pages).toBeLessThan(12);
    expect(calls.filter((channel) => channel === 'assets:layout').length).toBeGreaterThan(0);
    expect(await library.heldItems()).toBeLessThan(3000);
  });
});
