// The Atelier trash from a user's seat: removing local copies puts them in the Library's Trash place
// with their size (the files moved into the library's .trash folder); Restore brings them back,
// downloaded again and served; Undo on the removal's toast does the same; Empty trash, confirmed
// with the count, deletes the files from disk.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';

interface AssetLike {
  id: string;
  file: { state: string; localUrl: string | null; bytes: number | null };
}

const PROMPT = 'a red kite over green dunes';

async function kites(page: Page): Promise<AssetLike[]> {
  return invokeInPage<AssetLike[]>(page, 'assets:search', { query: 'kite' });
}

async function libraryDir(page: Page): Promise<string> {
  return (await invokeInPage<{ libraryDir: string }>(page, 'settings:get', undefined)).libraryDir;
}

/** The file named after this asset in a folder of the library, if any. */
function fileOf(folder: string, id: string): string | null {
  const name = existsSync(folder) ? readdirSync(folder).find((n) => n.startsWith(`${id}.`)) : undefined;
  return name ? join(folder, name) : null;
}

async function served(page: Page, url: string): Promise<number> {
  return page.evaluate(async (href) => (await fetch(href)).status, url);
}

test.describe('the trash', () => {
  let app: RunningApp;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    app = await demoAppWith(browser, [{ kind: 'image', body: { modelID: 'imagea', prompt: PROMPT, numImages: 3 } }], {
      offline: 3,
    });
  });

  test.afterAll(async () => {
    await app?.stop();
  });

  test('removed copies wait in the Trash with their size; Restore brings them back; Empty trash deletes them', async ({
    page,
  }) => {
    await page.goto(app.url);
    const library = new LibraryPage(page);
    await library.open();
    const dir = await libraryDir(page);
    const before = await kites(page);
    expect(before.map((a) => a.file.state)).toEqual(['downloaded', 'downloaded', 'downloaded']);
    const [one, two] = before.map((a) => a.id) as [string, string];
    const sizeOf = (id: string) => before.find((a) => a.id === id)?.file.bytes ?? 0;

    // Remove two local copies: the dialog says where they go.
    await library.search.fill('kite');
    await library.tile(one).click();
    await library.tile(two).click({ modifiers: ['ControlOrMeta'] });
    await library.bulk('remove-local');
    const dialog = library.confirmDialog('remove-local');
    await expect(dialog).toContainText('trash');
    await expect(dialog).toContainText('30 days');
    await dialog.getByTestId('confirm-delete').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Moved 2 local copies to the trash' })).toBeVisible();
    await expect(library.tile(one)).toHaveAttribute('data-local', 'false');
    await expect(library.tile(two)).toHaveAttribute('data-local', 'false');
    const images = join(dir, 'Demo', 'images');
    const trashed = join(dir, 'Demo', '.trash', 'images');
    for (const id of [one, two]) {
      expect(fileOf(images, id)).toBeNull();
      expect(statSync(fileOf(trashed, id) ?? '').size).toBe(sizeOf(id));
    }

    // The Trash place says how much it holds and lists them with their size and days left.
    const place = page.getByRole('button', { name: /^Trash · 2 items · / });
    await expect(place).toBeVisible();
    await place.click();
    const trashView = page.getByTestId('trash-view');
    await expect(trashView.getByRole('heading', { name: 'Trash' })).toBeVisible();
    const entries = trashView.getByTestId('trash-entry');
    await expect(entries).toHaveCount(2);
    await expect(entries.first()).toContainText('30 days left');
    await expect(trashView.locator(`[data-asset-id="${one}"]`)).toContainText(/\d+(\.\d)? (KB|MB)/);

    // Restore one: it is downloaded again, where it was, and served.
    await trashView.locator(`[data-asset-id="${one}"]`).getByRole('checkbox').check();
    await trashView.getByRole('button', { name: 'Restore 1' }).click();
    await expect(entries).toHaveCount(1);
    await expect(page.getByRole('button', { name: /^Trash · 1 item · / })).toBeVisible();
    const restored = (await kites(page)).find((a) => a.id === one);
    expect(restored?.file.state).toBe('downloaded');
    expect(statSync(fileOf(images, one) ?? '').size).toBe(sizeOf(one));
    expect(fileOf(trashed, one)).toBeNull();
    expect(await served(page, restored?.file.localUrl ?? '')).toBe(200);

    // Empty the trash: confirmed with the count, then the file is gone from disk.
    await trashView.getByRole('button', { name: 'Empty trash' }).click();
    const confirm = page.getByTestId('confirm-empty-trash');
    await expect(confirm).toContainText('1 item');
    await confirm.getByTestId('confirm-empty').click();
    await expect(trashView.getByTestId('trash-empty')).toBeVisible();
    expect(fileOf(trashed, two)).toBeNull();
    expect((await kites(page)).find((a) => a.id === two)?.file.state).toBe('remote');

    // Back to the results: the grid is there again.
    await library.place('results').click();
    await expect(trashView).toHaveCount(0);
    await expect(library.grid).toBeVisible();
  });

  test("Undo on the removal's toast puts the copy back", async ({ page }) => {
    await page.goto(app.url);
    const library = new LibraryPage(page);
    await library.open();
    const downloaded = (await kites(page)).filter((a) => a.file.state === 'downloaded');
    const id = downloaded[0]?.id ?? '';
    await library.search.fill('kite');
    await library.tile(id).click();
    await library.bulk('remove-local');
    await library.confirmDialog('remove-local').getByTestId('confirm-delete').click();
    const toast = page.getByTestId('toast').filter({ hasText: 'Moved 1 local copy to the trash' });
    await expect(library.tile(id)).toHaveAttribute('data-local', 'false');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(library.tile(id)).toHaveAttribute('data-local', 'true');
    expect((await kites(page)).find((a) => a.id === id)?.file.state).toBe('downloaded');
    await expect(page.getByRole('button', { name: /^Trash$/ })).toBeVisible();
  });
});
