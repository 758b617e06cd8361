// Names, not ids (issue 31): the visible text of Jobs (this app's jobs, trainings and the service's
// history), the Library's filters, the viewer's details (a preset image, a trained model's result,
// an upscale, a video from a first frame, with its request parameters open) and every toast shown
// along the way holds no `mdl_`/`img_`/`vid_`/`job_` id and no raw public model id. Raw ids may
// only be under a "Details" disclosure (data-testid="id-details"), which this reading skips.
import type { Locator } from '@playwright/test';
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { startBrowserModeApp } from './fixtures/browser-mode.ts';
import { PUBLIC_IMAGE_MODEL_IDS, VIDEO_MODEL_IDS } from '../src-main/contract/rules/index.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { generateAndWait, invokeInPage } from './pages/contract-client.ts';
import { JobsPage } from './pages/jobs-page.ts';
import { LibraryPage } from './pages/library-page.ts';

const RAW_ID = /\b(mdl|img|vid|job)_[0-9A-Za-z]+/;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PUBLIC_ID = new RegExp(
  `(^|[^\\w.-])(${[...PUBLIC_IMAGE_MODEL_IDS, ...VIDEO_MODEL_IDS].map(escape).join('|')})(?![\\w.-])`,
);

interface AssetLike {
  id: string;
  kind: 'image' | 'video';
  prompt: string | null;
  modelId: string | null;
  sourceAssetId: string | null;
}
interface ModelLike {
  id: string;
  modelType: string;
  usable: boolean;
  label: string | null;
}
interface JobLike {
  localId: number;
  state: string;
}

let app: RunningApp;
const ids: { preset?: string; trained?: string; upscale?: string; video?: string } = {};

async function waitForJob(page: Page, localId: number): Promise<void> {
  await expect
    .poll(
      async () =>
        (await invokeInPage<JobLike[]>(page, 'jobs:list', { limit: 200 })).find((j) => j.localId === localId)?.state,
      { timeout: 60_000 },
    )
    .toBe('succeeded');
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  // The lived-in demo: its trained models (with their results) and the service's free and general ones.
  app = await startBrowserModeApp(['--demo'], { ATELIER_DEMO_LIBRARY: 'full' });
  const page = await browser.newPage();
  await page.goto(app.url);
  await generateAndWait(page, [
    { kind: 'image', body: { modelID: 'imagec-2', prompt: 'a heron at dawn', preset: 'photo-golden-hour' } },
  ]);
  // The demo's trained models reach the cache with its first refresh.
  let trained: ModelLike | undefined;
  await expect
    .poll(
      async () =>
        (trained = (await invokeInPage<ModelLike[]>(page, 'models:list')).find(
          (m) => m.id.startsWith('mdl_') && m.usable,
        )),
      { timeout: 60_000 },
    )
    .toBeTruthy();
  if (!trained) throw new Error('the demo has no ready trained model');
  const list = async () =>
    (await invokeInPage<{ items: AssetLike[] }>(page, 'assets:list', { filter: {}, limit: 500 })).items;
  const heron = (await list()).find((a) => a.prompt === 'a heron at dawn');
  if (!heron) throw new Error('no heron image');
  ids.preset = heron.id;

  const jobs = [
    await invokeInPage<JobLike>(page, 'jobs:submit', {
      kind: 'image',
      body: { modelID: trained.id, prompt: 'a portrait by the window' },
    }),
    await invokeInPage<JobLike>(page, 'jobs:submit', { kind: 'upscale', body: { imageID: heron.id } }),
    await invokeInPage<JobLike>(page, 'jobs:submit', {
      kind: 'video',
      body: {
        modelID: 'videoa-3.1-fast',
        prompt: 'the heron takes flight',
        referenceImages: [{ url: (heron as AssetLike & { url: string }).url, role: 'first_frame' }],
      },
    }),
  ];
  for (const job of jobs) await waitForJob(page, job.localId);
  const items = await list();
  ids.trained = items.find((a) => a.prompt === 'a portrait by the window')?.id;
  ids.upscale = items.find((a) => a.sourceAssetId === heron.id)?.id;
  ids.video = items.find((a) => a.kind === 'video' && a.prompt === 'the heron takes flight')?.id;
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
});

/** The text a person sees in `root`: rendered text nodes (and select options), none under "Details". */
function visibleText(root: Locator): Promise<string> {
  return root.evaluate((element: Element) => {
    const parts: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('[data-testid="id-details"]')) continue;
      if (parent.tagName === 'OPTION') {
        if (parent.closest('select')?.checkVisibility()) parts.push(node.textContent ?? '');
        continue;
      }
      if (parent.closest('details:not([open]) > :not(summary)')) continue;
      if (!parent.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) continue;
      parts.push(node.textContent ?? '');
    }
    return parts.join(' ');
  });
}

function expectNoIds(text: string, where: string): void {
  expect(text, `${where}: a service id is visible`).not.toMatch(RAW_ID);
  expect(text, `${where}: a raw public model id is visible`).not.toMatch(PUBLIC_ID);
}

/** Every toast's text, gathered as toasts appear (they leave after a while). */
async function recordToasts(page: Page): Promise<() => Promise<string>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenToasts: string[] }).seenToasts = seen;
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-testid="toast"]')) {
        const text = (toast as HTMLElement).innerText;
        if (!seen.includes(text)) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { seenToasts: string[] }).seenToasts.join('\n'));
}

async function openAsset(page: Page, id: string): Promise<AssetViewPage> {
  const view = new AssetViewPage(page);
  await new LibraryPage(page).tile(id).dispatchEvent('dblclick');
  await expect(view.root).toHaveAttribute('data-asset-id', id);
  if ((await view.panel.getAttribute('hidden')) !== null) await page.keyboard.press('i');
  await expect(view.panel).toBeVisible();
  return view;
}

test('Jobs, the Library filters, the viewer details and the toasts name things instead of showing ids', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(app.url);
  const toastText = await recordToasts(page);

  // Jobs: this app's jobs (a trained model's, an upscale, a video, an imagec-2 with a preset).
  const jobs = new JobsPage(page);
  await jobs.open();
  await expect(jobs.rows.filter({ hasText: 'a portrait by the window' })).toHaveCount(1);
  await expect(jobs.rows.filter({ hasText: 'the heron takes flight' })).toHaveCount(1);
  expectNoIds(await visibleText(jobs.root), 'Jobs (This app)');
  const trainedRow = jobs.rows.filter({ hasText: 'a portrait by the window' });
  await expect(trainedRow.getByTestId('job-model')).not.toBeEmpty();
  await expect(jobs.rows.filter({ hasText: 'Upscale of “a heron at dawn”' })).toHaveCount(1);
  await expect(jobs.rows.filter({ hasText: 'a heron at dawn' }).first()).toContainText('Image C 2');
  expectNoIds(await visibleText(jobs.root), 'Jobs (This app)');

  // Jobs: the service's history, each row by prompt and model, opening its result.
  await jobs.showHistory();
  await page.getByTestId('history-show').click();
  const heronRow = jobs.historyRows.filter({ hasText: 'a heron at dawn' }).filter({ hasNotText: 'Upscale' });
  await expect(heronRow).toHaveCount(1, { timeout: 20_000 });
  await expect(heronRow.getByTestId('history-model')).toContainText('Image C 2');
  await expect(heronRow.locator('img')).toHaveCount(1);
  expectNoIds(await visibleText(jobs.root), 'Jobs (Service history)');
  await heronRow.getByTestId('history-open').focus();
  await page.keyboard.press('Enter');
  const view = new AssetViewPage(page);
  await expect(view.root).toHaveAttribute('data-asset-id', ids.preset ?? '');
  await page.keyboard.press('Escape');
  await expect(view.root).toHaveCount(0);

  // The Library's filters: sidebar and toolbar, the model filter's choices included.
  await page.getByTestId('nav-library').click();
  const library = new LibraryPage(page);
  await expect(library.tiles.first()).toBeVisible();
  const modelFilter = page.getByTestId('filter-model');
  await expect(modelFilter.locator('option', { hasText: 'Image C 2' })).toHaveCount(1);
  await expect(modelFilter.locator('option', { hasText: 'Video A 3.1 Fast' })).toHaveCount(1);
  expectNoIds(await visibleText(page.getByTestId('view-library')), 'Library filters');

  // The viewer's details, with the request parameters open.
  const shown: [string, string | undefined, RegExp][] = [
    ['an imagec-2 image with a preset', ids.preset, /Image C 2[\s\S]*Golden hour/],
    ['a trained model’s result', ids.trained, /Model/],
    ['an upscale', ids.upscale, /a heron at dawn/],
    ['a video from a first frame', ids.video, /Video A 3\.1 Fast[\s\S]*first frame/i],
  ];
  for (const [what, id, says] of shown) {
    expect(id, `no asset for ${what}`).toBeTruthy();
    const viewer = await openAsset(page, id ?? '');
    const params = viewer.panel.getByText('Request parameters');
    if ((await params.count()) > 0) await params.click();
    const text = await visibleText(viewer.panel);
    expect(text, what).toMatch(says);
    expectNoIds(text, `Viewer details of ${what}`);
    await page.keyboard.press('Escape');
    await expect(viewer.root).toHaveCount(0);
  }

  // A toast along the way: an upscale started from the viewer names its source.
  const viewer = await openAsset(page, ids.preset ?? '');
  await viewer.action('upscale').click();
  await expect(page.getByTestId('toast').first()).toBeVisible();
  expectNoIds(await toastText(), 'Toasts');
});
