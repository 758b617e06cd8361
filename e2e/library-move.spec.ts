// Settings → Library folder → Move…: a folder that already holds files is refused with what to do; an
// aborted move leaves the library where it was; a move shows its progress, puts every file in the new
// folder and none in the old one, and the Library still shows the assets offline, served from there.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, test, type Page } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { AssetViewPage } from './pages/asset-view-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';
import { SettingsPage } from './pages/settings-page.ts';

/** Every file under a folder, by path relative to it, with its size. */
function filesUnder(root: string): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) found.set(relative(root, full), statSync(full).size);
    }
  };
  if (existsSync(root)) walk(root);
  return found;
}

const libraryDir = async (page: Page): Promise<string> =>
  (await invokeInPage<{ libraryDir: string }>(page, 'settings:get')).libraryDir;

test.describe('moving the library folder', () => {
  let app: RunningApp;
  const scratch = mkdtempSync(join(tmpdir(), 'atelier-move-'));

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    // Every output downloaded: these are the files the move has to carry.
    app = await demoAppWith(
      browser,
      [
        { kind: 'image', body: { modelID: 'imagea', prompt: 'a red kite over a grey beach', numImages: 2 } },
        { kind: 'image', body: { modelID: 'imageb', prompt: 'a paper boat on a puddle', numImages: 1 } },
      ],
      { offline: 3 },
    );
  });

  test.afterAll(async () => {
    await app?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('a folder that already holds files is refused, with what to do; nothing moves', async ({ page }) => {
    const settings = new SettingsPage(page);
    await page.goto(app.url);
    await new AppShellPage(page).goTo('settings');
    const from = await libraryDir(page);
    const before = filesUnder(from);
    await expect(settings.libraryFolderPath).toHaveText(from);

    const occupied = join(scratch, 'occupied');
    mkdirSync(occupied, { recursive: true });
    writeFileSync(join(occupied, 'keep.txt'), 'mine');

    await settings.moveLibrary.click();
    await expect(settings.moveDialog).toBeVisible();
    // Checked as typed: a relative path, the library folder itself, a folder inside it.
    await settings.moveFolder.fill('Pictures/Atelier');
    await settings.moveNext.click();
    await expect(settings.moveDialog).toContainText('Give a full path');
    await settings.moveFolder.fill(from);
    await expect(settings.moveDialog).toContainText('That is already the library folder.');
    await settings.moveFolder.fill(join(from, 'inside'));
    await expect(settings.moveDialog).toContainText('cannot be inside the current library folder');

    // The core refuses a folder that is not empty; the dialog comes back to the field and says what to do.
    await settings.moveFolder.fill(occupied);
    await settings.moveNext.click();
    await expect(settings.moveSummary).toBeFocused();
    await expect(settings.moveDialog.getByTestId('move-library-to')).toHaveText(occupied);
    await settings.moveConfirm.click();
    await expect(settings.moveDialog).toContainText(
      'The new folder is not empty; choose an empty folder or a new one.',
    );
    await expect(settings.moveFolder).toBeFocused();
    await expect(settings.moveFolder).toHaveAttribute('aria-invalid', 'true');
    await screenshotBothSchemes(page, 'settings-library-move-refused');

    await page.keyboard.press('Escape');
    await expect(settings.moveDialog).toHaveCount(0);
    await expect(settings.moveLibrary).toBeFocused();
    await expect(settings.moveStatus).toHaveCount(0);
    expect(await libraryDir(page)).toBe(from);
    expect(filesUnder(from)).toEqual(before);
    expect(readdirSync(occupied)).toEqual(['keep.txt']);
  });

  test('Abort stops a move while it copies; the library stays where it was', async ({ page }) => {
    const settings = new SettingsPage(page);
    await page.goto(app.url);
    await new AppShellPage(page).goTo('settings');
    const from = await libraryDir(page);
    const before = filesUnder(from);
    // A big file in the library's images (sparse: cheap to make, slow enough to copy and check).
    mkdirSync(join(from, 'images'), { recursive: true });
    const big = join(from, 'images', 'kept-by-me.bin');
    writeFileSync(big, '');
    truncateSync(big, 768 * 1024 * 1024);
    const to = join(scratch, 'aborted', 'Library');
    try {
      await settings.chooseMoveTarget(to);
      await settings.moveConfirm.click();
      await expect(settings.moveDialog).toHaveCount(0);
      await expect(settings.moveStatus).toBeFocused();
      await expect(settings.moveStatus).toHaveAttribute('data-state', /copying|verifying/);
      // While it moves, nothing else may change the library folder.
      await expect(settings.moveLibrary).toBeDisabled();
      await settings.repointToggle.click();
      await expect(settings.repointField).toBeDisabled();
      await settings.moveAbort.click();

      await expect(settings.moveStatus).toHaveAttribute('data-state', 'aborted', { timeout: 20_000 });
      await expect(settings.moveOutcome).toContainText('The move was stopped.');
      await expect(settings.moveOutcome).toContainText(`The library stays in ${from}.`);
      await expect(settings.moveLibrary).toBeEnabled();
      await expect(settings.repointField).toBeEnabled();
      expect(await libraryDir(page)).toBe(from);
      const after = filesUnder(from);
      after.delete(join('images', 'kept-by-me.bin'));
      expect(after).toEqual(before);
      expect(existsSync(big)).toBe(true);

      await settings.moveOutcome.getByTestId('library-move-dismiss').click();
      await expect(settings.moveStatus).toHaveCount(0);
    } finally {
      rmSync(big, { force: true });
      rmSync(join(scratch, 'aborted'), { recursive: true, force: true });
    }
  });

  test('Move… shows progress, then the files are in the new folder only and still offline in the Library', async ({
    page,
  }) => {
    // The demo library moves in a blink: hold the bridge's messages from the first copied file on, so the
    // progress stays on screen to be checked, then let the rest through.
    const held: (() => void)[] = [];
    let holding: object | null = null;
    let released = false;
    await page.routeWebSocket(/\/bridge$/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (holding === ws) {
          held.push(() => ws.send(message));
          return;
        }
        ws.send(message);
        const data = JSON.parse(String(message)) as { kind: string; event?: string; payload?: { filesDone?: number } };
        const firstFileCopied =
          data.kind === 'event' && data.event === 'library:move-progress' && (data.payload?.filesDone ?? 0) >= 1;
        if (firstFileCopied && !released) holding = ws;
      });
    });
    const release = (): void => {
      released = true;
      holding = null;
      for (const send of held.splice(0)) send();
    };

    const settings = new SettingsPage(page);
    await page.goto(app.url);
    await new AppShellPage(page).goTo('settings');
    const from = await libraryDir(page);
    const before = filesUnder(from);
    expect([...before.keys()].filter((path) => path.startsWith(join('Demo', 'images')))).toHaveLength(3);
    const to = join(scratch, 'Moved Library');

    // Keyboard only: Move…, the folder, Enter, then Tab to "Move library".
    await settings.moveLibrary.focus();
    await page.keyboard.press('Enter');
    await expect(settings.moveDialog).toBeVisible();
    await settings.moveFolder.focus();
    await page.keyboard.type(to);
    await page.keyboard.press('Enter');
    await expect(settings.moveSummary).toBeFocused();
    await expect(settings.moveDialog).toContainText('copied to the new folder and checked');
    await expect(settings.moveDialog).toContainText('deletes the originals');
    await screenshotBothSchemes(page, 'settings-library-move-confirm');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(settings.moveConfirm).toBeFocused();
    await page.keyboard.press('Enter');

    // Progress: phase, files and bytes of the total, a determinate bar, Abort one Tab away.
    await expect(settings.moveDialog).toHaveCount(0);
    await expect(settings.moveStatus).toBeFocused();
    await expect(settings.movePhase).toHaveText('Copying and checking files…');
    await expect(settings.moveCounts).toContainText(`1 of ${before.size} files`);
    await expect(settings.moveProgress).toHaveAttribute('aria-valuenow', /^\d+$/);
    await page.keyboard.press('Tab');
    await expect(settings.moveAbort).toBeFocused();
    await expect(settings.moveLibrary).toBeDisabled();
    await screenshotBothSchemes(page, 'settings-library-moving');

    release();
    await expect(settings.moveStatus).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await expect(settings.moveOutcome).toContainText('The library was moved.');
    await expect(settings.moveOutcome).toContainText(`${before.size} files`);
    await expect(settings.libraryFolderPath).toHaveText(to);
    await expect(settings.moveLibrary).toBeEnabled();
    await page.mouse.move(0, 0);
    await screenshotBothSchemes(page, 'settings-library-moved');
    expect(await libraryDir(page)).toBe(to);

    // On disk: every file in the new folder, byte for byte the same size; none left in the old one.
    const after = filesUnder(to);
    for (const [path, size] of before) {
      expect(after.get(path), path).toBe(size);
      expect(existsSync(join(from, path)), path).toBe(false);
    }
    expect(existsSync(from)).toBe(false);

    // The Library still has them offline, served from the new folder.
    const library = new LibraryPage(page);
    await library.open();
    await expect(library.tiles).toHaveCount(3);
    for (const tile of await library.tiles.all()) await expect(tile).toHaveAttribute('data-local', 'true');
    const thumbs = await library.tiles
      .locator('img')
      .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src));
    expect(thumbs).toHaveLength(3);
    for (const src of thumbs) expect((await page.request.get(src)).status(), src).toBe(200);

    const view = new AssetViewPage(page);
    await library.tiles.first().dblclick();
    await expect(view.offlineStatus).toHaveAttribute('data-state', 'downloaded');
    await expect(view.offlineStatus).toContainText('Available offline');
    await expect
      .poll(() => view.image.evaluate((image) => (image as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  });
});
