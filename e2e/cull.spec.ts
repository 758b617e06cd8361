// The culling view: a set (the Library's view, a selection, a job's outputs) gone through full screen by
// keys — rate, flag, auto-advance, undo, loupe and survey — and "Review rejects", which removes exactly the
// rejected items' local copies.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/page-errors.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';
import { demoAppWith } from './fixtures/demo-library.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { LibraryPage } from './pages/library-page.ts';

const SUBJECTS = [
  'a quiet meadow at dawn',
  'a red fox in tall grass',
  'a stone bridge over a stream',
  'a lighthouse on a cliff',
  'a cabin under snow',
];

interface Listed {
  id: string;
  prompt: string | null;
  rating: number;
  flag: 'pick' | 'reject' | null;
  file: { state: string; path: string | null };
}

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  app = await demoAppWith(
    browser,
    SUBJECTS.map((prompt) => ({ kind: 'image' as const, body: { modelID: 'imagea', prompt, numImages: 4 } })),
    { offline: 20, timeoutMs: 90_000 },
  );
});

test.afterAll(async () => {
  await app?.stop();
});

const listAll = async (page: Page): Promise<Listed[]> =>
  (await invokeInPage<{ items: Listed[] }>(page, 'assets:list', { limit: 100 })).items;

const cullView = (page: Page) => page.getByRole('dialog', { name: /^Cull/ });

/** The item the loupe shows now. */
const shownId = async (page: Page): Promise<string> =>
  (await page.getByTestId('cull-loupe-stage').getAttribute('data-asset-id')) ?? '';

test('a cull of 20 by keys, with an undo, ends with the right picks and rejects', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await expect(library.tiles).toHaveCount(20);
  await page.getByRole('button', { name: 'Cull all…' }).click();
  const view = cullView(page);
  await expect(view).toBeVisible();
  const progress = view.getByTestId('cull-progress');
  await expect(progress).toHaveText('1 of 20 · 0 picks · 0 rejects');
  await expect(progress).toHaveAttribute('aria-live', 'polite');

  const autoAdvance = view.getByRole('button', { name: /Auto-advance/ });
  await expect(autoAdvance).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('a');
  await expect(autoAdvance).toHaveAttribute('aria-pressed', 'true');

  const expected = new Map<string, { rating: number; flag: 'pick' | 'reject' | null }>();
  /** Presses the keys on the item shown, noting what it should end with. */
  const press = async (keys: string[], end: { rating: number; flag: 'pick' | 'reject' | null }) => {
    const id = await shownId(page);
    for (const key of keys) await page.keyboard.press(key);
    expected.set(id, end);
    return id;
  };

  // A rating does not move on; a flag does (auto-advance).
  const first = await press(['5'], { rating: 5, flag: 'pick' });
  await expect(progress).toHaveText('1 of 20 · 0 picks · 0 rejects');
  await page.keyboard.press('p');
  await expect(progress).toHaveText('2 of 20 · 1 pick · 0 rejects');
  expect(first).not.toBe(await shownId(page));
  await press(['x'], { rating: 0, flag: 'reject' });
  await press(['2', 'x'], { rating: 2, flag: 'reject' });
  await expect(progress).toHaveText('4 of 20 · 1 pick · 2 rejects');

  // The fourth is rejected, then the reject undone: back on it, unflagged, and the core holds that too.
  const fourth = await shownId(page);
  await page.keyboard.press('x');
  await expect(progress).toHaveText('5 of 20 · 1 pick · 3 rejects');
  await page.keyboard.press('Control+z');
  await expect(progress).toHaveText('4 of 20 · 1 pick · 2 rejects');
  expect(await shownId(page)).toBe(fourth);
  await expect(view.getByRole('button', { name: 'Reject', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await expect
    .poll(async () => (await listAll(page)).find((a) => a.id === fourth) ?? { flag: 'missing' })
    .toMatchObject({ flag: null });
  await press(['3', 'p'], { rating: 3, flag: 'pick' });

  // The rest: every third rejected, the others picked, one left alone (moved past with →).
  for (let n = 5; n <= 20; n += 1) {
    if (n === 12) {
      expected.set(await shownId(page), { rating: 0, flag: null });
      await page.keyboard.press('ArrowRight');
    } else if (n % 3 === 0) await press(['x'], { rating: 0, flag: 'reject' });
    else await press(['p'], { rating: 0, flag: 'pick' });
  }
  const picks = [...expected.values()].filter((m) => m.flag === 'pick').length;
  const rejects = [...expected.values()].filter((m) => m.flag === 'reject').length;
  await expect(progress).toHaveText(`20 of 20 · ${picks} picks · ${rejects} rejects`);
  expect(expected.size).toBe(20);

  // The survey: four side by side, the current one outlined; ← moves the outline.
  await page.keyboard.press('n');
  const panes = view.getByTestId('cull-pane');
  await expect(panes).toHaveCount(4);
  await expect(panes.nth(3)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(panes.nth(2)).toHaveAttribute('aria-current', 'true');
  await expect(progress).toHaveText(`19 of 20 · ${picks} picks · ${rejects} rejects`);
  await page.keyboard.press('n');
  await expect(view.getByTestId('cull-loupe-stage')).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();

  // The core holds exactly these marks, and the Library counts them.
  await expect
    .poll(async () => Object.fromEntries((await listAll(page)).map((a) => [a.id, { rating: a.rating, flag: a.flag }])))
    .toEqual(Object.fromEntries(expected));
  const counts = await invokeInPage<{ picks: number; rejects: number }>(page, 'assets:counts', {});
  expect([counts.picks, counts.rejects]).toEqual([picks, rejects]);
});

test('"Review rejects" removes exactly the rejected local copies, into the trash', async ({ page }) => {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await library.search.fill('lighthouse');
  await expect(library.tiles).toHaveCount(4);
  await library.tiles.first().click();
  await page.keyboard.press('Control+a');
  await expect(library.selectionCount).toHaveText('4 selected');
  await library.selectionBar.getByRole('button', { name: 'Cull…' }).click();
  const view = cullView(page);
  await expect(view).toBeVisible();
  await expect(view.getByTestId('cull-progress')).toContainText('1 of 4');

  // Auto-advance is off in a new window's first cull: each item is set, then → moves on.
  const rejected: string[] = [];
  const kept: string[] = [];
  for (const key of ['x', 'u', 'x', 'p']) {
    const id = await shownId(page);
    await page.keyboard.press('u');
    await page.keyboard.press(key);
    (key === 'x' ? rejected : kept).push(id);
    await page.keyboard.press('ArrowRight');
  }
  await expect(view.getByTestId('cull-progress')).toHaveText('4 of 4 · 1 pick · 2 rejects');

  const { libraryDir } = await invokeInPage<{ libraryDir: string }>(page, 'settings:get');
  const before = await listAll(page);
  const fileOf = (id: string) => join(libraryDir, before.find((a) => a.id === id)?.file.path ?? 'missing');
  for (const id of [...rejected, ...kept]) expect(existsSync(fileOf(id)), fileOf(id)).toBe(true);

  await view.getByRole('button', { name: /Review rejects/ }).click();
  const review = view.getByTestId('cull-review');
  await expect(review.getByTestId('cull-review-item')).toHaveCount(2);
  expect(
    await review.getByTestId('cull-review-item').evaluateAll((els) => els.map((el) => el.dataset.assetId)),
  ).toEqual(rejected);
  await review.getByRole('button', { name: 'Remove 2 local copies…' }).click();
  const confirm = page.getByTestId('confirm-remove-local');
  await expect(confirm).toBeVisible();
  await confirm.getByTestId('confirm-delete').click();
  await expect(confirm).toBeHidden();
  await expect(review.getByRole('button', { name: 'Remove 0 local copies…' })).toBeDisabled();

  // The rejected ones' copies are gone from where they were (into the trash, where there is one); the others stay.
  const all = await listAll(page);
  const state = (id: string) => all.find((a) => a.id === id)?.file.state;
  expect(rejected.map(state)).toEqual(['remote', 'remote']);
  expect(kept.map(state)).toEqual(['downloaded', 'downloaded']);
  for (const id of rejected) expect(existsSync(fileOf(id)), fileOf(id)).toBe(false);
  for (const id of kept) expect(existsSync(fileOf(id)), fileOf(id)).toBe(true);
  expect((await invokeInPage<{ offline: number }>(page, 'assets:counts', {})).offline).toBe(18);

  // Esc goes back from the review to the cull, then leaves it; the Library's selection is as it was.
  await page.keyboard.press('Escape');
  await expect(view.getByTestId('cull-loupe-stage')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();
  await expect(library.selectionCount).toHaveText('4 selected');

  // They went into the trash, and only they: the Trash place counts them, and restoring brings them back.
  const trashed = await invokeInPage<{ entries: { asset: { kind: 'image' | 'video'; id: string } }[] }>(
    page,
    'trash:list',
  );
  expect(trashed.entries.map((entry) => entry.asset.id).sort()).toEqual([...rejected].sort());
  await expect(page.getByTestId('place-trash')).toHaveAccessibleName(/^Trash · 2 items · /);
  await invokeInPage(page, 'trash:restore', {
    assets: trashed.entries.map(({ asset }) => ({ kind: asset.kind, id: asset.id })),
  });
  for (const id of rejected) await expect.poll(() => existsSync(fileOf(id)), { message: fileOf(id) }).toBe(true);
  expect((await invokeInPage<{ offline: number }>(page, 'assets:counts', {})).offline).toBe(20);
});

test('a finished job in Jobs opens its outputs in the cull', async ({ page }) => {
  await page.goto(app.url);
  await page.getByTestId('nav-jobs').click();
  const row = page.getByTestId('job-row').filter({ hasText: 'a red fox in tall grass' });
  await row.getByRole('button', { name: 'Cull…' }).click();
  const view = cullView(page);
  await expect(view).toBeVisible();
  await expect(view.getByTestId('cull-progress')).toContainText('1 of 4');
  await expect(view.getByTestId('cull-name')).toContainText('a red fox in tall grass');
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();
});

test('the cull is accessible: nothing serious in the loupe, the survey or the review, light and dark', async ({
  page,
}) => {
  // Six axe runs: generous on a shared, busy machine (as a11y.spec.ts is).
  test.setTimeout(180_000);
  await page.goto(app.url);
  const library = new LibraryPage(page);
  await library.open();
  await library.search.fill('cabin');
  await expect(library.tiles).toHaveCount(4);
  await page.getByRole('button', { name: 'Cull all…' }).click();
  const view = cullView(page);
  await expect(view).toBeVisible();
  await page.keyboard.press('x');
  const serious = async () => {
    await page.waitForTimeout(250);
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="cull-view"]').analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await serious(), `loupe, ${scheme}`).toEqual([]);
    await page.keyboard.press('n');
    await expect(view.getByTestId('cull-pane').first()).toBeVisible();
    expect(await serious(), `survey, ${scheme}`).toEqual([]);
    await page.keyboard.press('n');
    await page.keyboard.press('r');
    await expect(view.getByTestId('cull-review')).toBeVisible();
    expect(await serious(), `review, ${scheme}`).toEqual([]);
    await view.getByRole('button', { name: 'Back to the cull' }).click();
  }
  // Tab stays inside the cull.
  for (let i = 0; i < 25; i += 1) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="cull-view"]'))).toBe(true);
  }
});
