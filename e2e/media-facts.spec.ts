// Media facts (issue 31): the viewer of a downloaded 1024² image says "1024 × 1024" with its format and size on
// disk, read from the file; a downloaded video says its frame size and length as its file has them (not the
// 8 s its request asked for); an exported sidecar carries width, height and format.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';

interface AssetLike {
  kind: 'image' | 'video';
  id: string;
  prompt: string | null;
  factsFrom: string | null;
}

const IMAGE_PROMPT = 'a square of moss on granite';
const VIDEO_PROMPT = 'a paper boat drifting down a gutter';

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  app = await demoAppWith(
    browser,
    [
      { kind: 'image', body: { modelID: 'imagea', prompt: IMAGE_PROMPT, aspectRatio: '1:1' } },
      { kind: 'video', body: { modelID: 'videoa-3.1', prompt: VIDEO_PROMPT } },
    ],
    { offline: 2, timeoutMs: 120_000 },
  );
});

test.afterAll(async () => {
  await app?.stop();
});

/** The asset of this prompt once its file's facts are read (they follow the download). */
async function readAsset(page: Page, kind: 'image' | 'video', prompt: string): Promise<AssetLike> {
  let found: AssetLike | undefined;
  await expect
    .poll(
      async () => {
        const { items } = await invokeInPage<{ items: AssetLike[] }>(page, 'assets:list', { filter: { kind } });
        found = items.find((item) => item.prompt === prompt);
        return found?.factsFrom ?? null;
      },
      { timeout: 30_000 },
    )
    .toBe('file');
  return found!;
}

async function openAsset(page: Page, id: string): Promise<AssetViewPage> {
  const library = new LibraryPage(page);
  await library.open();
  const view = new AssetViewPage(page);
  await library.tile(id).dispatchEvent('dblclick');
  await expect(view.root).toHaveAttribute('data-asset-id', id);
  return view;
}

const fact = (view: AssetViewPage, label: string) =>
  view.panel.getByTestId('media-facts').locator(`dd[data-fact="${label}"]`);

test('the viewer of a downloaded 1024² image says 1024 × 1024, its format and its size on disk', async ({ page }) => {
  await page.goto(app.url);
  const image = await readAsset(page, 'image', IMAGE_PROMPT);
  const view = await openAsset(page, image.id);
  const facts = view.panel.getByRole('region', { name: 'Media' });
  await expect(facts).toBeVisible();
  await expect(facts.getByText('1024 × 1024', { exact: true })).toBeVisible();
  await expect(fact(view, 'Format')).toHaveText('JPEG');
  await expect(fact(view, 'On disk')).toHaveText(/^\d+(\.\d)? (KB|MB)$/);
  // The tile's tooltip says the same facts.
  await page.keyboard.press('Escape');
  await expect(new LibraryPage(page).tile(image.id)).toHaveAttribute('title', /1024 × 1024 · JPEG · \d/);
});

test('a downloaded video shows its frame size and its length, as its file has them', async ({ page }) => {
  await page.goto(app.url);
  const video = await readAsset(page, 'video', VIDEO_PROMPT);
  const view = await openAsset(page, video.id);
  // The emulator's clip is 320×180 and 2.5 s long (its request asked for 8 s at 720p).
  await expect(fact(view, 'Frame size')).toHaveText('320 × 180');
  await expect(fact(view, 'Length')).toHaveText('0:03');
  await expect(fact(view, 'Format')).toHaveText('MP4');
});

test('an exported sidecar carries width, height and format', async ({ page }) => {
  await page.goto(app.url);
  const image = await readAsset(page, 'image', IMAGE_PROMPT);
  const view = await openAsset(page, image.id);
  const library = new LibraryPage(page);
  const folder = mkdtempSync(join(tmpdir(), 'atelier-facts-export-'));
  try {
    await view.action('export').click();
    await expect(library.exportDialog).toBeVisible();
    await library.exportFolder.fill(folder);
    await library.exportDialog.getByTestId('export-confirm').click();
    await expect(library.exportDialog).toHaveCount(0);
    await expect.poll(() => readdirSync(folder).filter((name) => name.endsWith('.json')).length).toBe(1);
    const sidecar = readdirSync(folder).find((name) => name.endsWith('.json')) ?? '';
    expect(JSON.parse(readFileSync(join(folder, sidecar), 'utf8'))).toMatchObject({
      id: image.id,
      width: 1024,
      height: 1024,
      format: 'jpeg',
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
