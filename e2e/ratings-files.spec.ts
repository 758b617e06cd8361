// Ratings travel with the files: marked results are exported, their marks cleared, and "Import ratings
// from a folder…" in the Library's menu gives them back from the exported files; what it did is said
// in the dialog in words, with a file that matched nothing named with its reason.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';

let app: RunningApp;
let folder: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000);
  app = await demoAppWith(
    browser,
    [{ kind: 'image', body: { modelID: 'imagea', prompt: 'a kingfisher on a branch', numImages: 3 } }],
    { offline: 3 },
  );
  folder = mkdtempSync(join(tmpdir(), 'atelier-ratings-'));
});

test.afterAll(async () => {
  await app?.stop();
  rmSync(folder, { recursive: true, force: true });
});

type Item = { kind: 'image'; id: string; rating: number; flag: string | null };

test('exported ratings and flags come back from the folder, by the Library menu', async ({ page }) => {
  await page.goto(app.url);
  const list = async () => (await invokeInPage<{ items: Item[] }>(page, 'assets:list', {})).items;
  const [a, b, c] = (await list()).map(({ kind, id }) => ({ kind, id }));
  if (!a || !b || !c) throw new Error('three results expected');
  await invokeInPage(page, 'assets:mark', { assets: [a], rating: 5, flag: 'pick' });
  await invokeInPage(page, 'assets:mark', { assets: [b], rating: 2, flag: 'reject' });
  const exported = await invokeInPage<{ exported: number }>(page, 'library:export', { assets: [a, b, c], to: folder });
  expect(exported.exported).toBe(3);
  expect(JSON.parse(readFileSync(join(folder, `${a.id}.json`), 'utf8'))).toMatchObject({ rating: 5, flag: 'pick' });
  writeFileSync(join(folder, 'stray.json'), JSON.stringify({ kind: 'image', id: 'img_not_here', rating: 4 }));
  // Cleared here, as in a fresh library.
  await invokeInPage(page, 'assets:mark', { assets: [a, b], rating: 0, flag: null });

  const library = new LibraryPage(page);
  await library.open();
  await page.getByRole('button', { name: 'Library menu' }).click();
  await page.getByRole('menuitem', { name: 'Import ratings from a folder…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import ratings from a folder' });
  await expect(dialog).toBeVisible();
  const field = dialog.getByRole('textbox', { name: 'Folder to import from' });
  await field.fill('not/a/full/path');
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog).toContainText('Give a full path');
  await field.fill(folder);
  await dialog.getByRole('button', { name: 'Import' }).click();
  const status = dialog.getByRole('status');
  await expect(status).toContainText('Restored the ratings and flags of 2 items.');
  await expect(status).toContainText('1 item already had its ratings and flags.');
  await expect(status).toContainText('stray.json: The item it names is not in this library.');
  const marks = Object.fromEntries((await list()).map((item) => [item.id, [item.rating, item.flag]]));
  expect(marks).toEqual({ [a.id]: [5, 'pick'], [b.id]: [2, 'reject'], [c.id]: [0, null] });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
});
