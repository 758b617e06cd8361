// The Experiments view from the user's seat (issue 33): an experiment of 3 models × 2 aspect ratios,
// started through the app's own experiments:start channel, shows as a labelled matrix of 6 cells
// (models in the row headers by name, aspect ratios in the column headers), the pending cells already
// in the shape they asked for; the app restarted mid-run resumes and finishes every cell with exactly 6
// generations at the service; a favourite, "Compare selected" and "Use these settings" work; and with
// the service down, the matrix reopens from the library.
import { writeFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { expect, test } from './fixtures/page-errors.ts';
import { imageGenerations } from './fixtures/service-account.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { ExperimentsPage } from './pages/experiments-page.ts';

const KEY = 'demo-key';
const NAME = 'Lighthouse across models';
const PROMPT = 'a lighthouse on a cliff at dusk';
const MODELS = ['imagea', 'imageb', 'imagec-2'];
const RATIOS = ['16:9', '9:16'];

interface Started {
  id: number;
  rows: { value: string; label: string }[];
  columns: { value: string; label: string }[];
}

let app: RunningApp | undefined;
let emulator: RunningEmulator | undefined;
test.afterEach(async () => {
  await app?.stop();
  await emulator?.close();
  app = undefined;
  emulator = undefined;
});

test('3 models × 2 aspect ratios: 6 labelled cells, pending in their shape, filled live across a restart with exactly 6 requests; favourite, compare, use settings; reopened offline', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Image jobs take 15–30 s of the service's time: at 2× they are still running when the app restarts.
  emulator = await startEmulator({ port: 0, timeScale: 2 });
  const baseUrl = emulator.url;
  // The key from the environment and the address in settings: a restart opens the same account.
  app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl } }));
  });
  await page.goto(app.url);
  const shell = new AppShellPage(page);
  await expect(shell.connection).toHaveText('Online', { timeout: 20_000 });
  await shell.goTo('experiments');
  const view = new ExperimentsPage(page);
  await expect(view.root.getByTestId('experiments-empty')).toBeVisible();

  const started = await invokeInPage<Started>(page, 'experiments:start', {
    base: { kind: 'image', body: { modelID: 'imagea', prompt: PROMPT } },
    axes: [
      { kind: 'model', values: MODELS },
      { kind: 'aspectRatio', values: RATIOS },
    ],
    name: NAME,
  });

  // The list shows it without a reload, with its axes and progress.
  const row = view.row(NAME);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('experiment-axes')).toHaveText('Model × Aspect ratio');
  await expect(row.getByTestId('experiment-progress')).toContainText('of 6 done');

  await view.openExperiment(NAME);
  await expect(view.cells).toHaveCount(6);
  const headers = await view.readHeaders();
  expect(headers.columns).toEqual(RATIOS);
  expect(headers.rows).toEqual(started.rows.map((r) => r.label));
  for (const label of headers.rows) expect(MODELS, 'a model is named, not shown by its id').not.toContain(label);

  // Pending cells already have the shape they asked for: 16:9 in the first column, 9:16 in the second.
  await expect(view.placeholders.first()).toBeVisible();
  const shapes = await view.placeholders.evaluateAll((els) =>
    els.map((el) => {
      const box = el.getBoundingClientRect();
      const cell = el.closest('[data-testid="experiment-cell"]') as HTMLElement;
      return { column: Number(cell.dataset['column']), ratio: box.width / box.height };
    }),
  );
  expect(shapes.length).toBeGreaterThan(0);
  for (const shape of shapes) expect(shape.ratio).toBeCloseTo(shape.column === 0 ? 16 / 9 : 9 / 16, 1);
  await expect(view.cells.first().getByTestId('cell-status')).toHaveText(/^(Queued|Making…)$/);

  // Restarted mid-run: the batch and its jobs carry on where they were.
  expect(await view.outputs.count(), 'the restart comes while cells are still being made').toBeLessThan(6);
  app = await app.restart();
  await page.goto(app.url);
  await shell.goTo('experiments');
  await view.openExperiment(NAME);
  await expect(view.cells).toHaveCount(6);
  // It fills live (no reload from here on) until every cell shows its picture.
  await expect(view.outputs).toHaveCount(6, { timeout: 150_000 });
  await expect(view.progress).toHaveText('6 of 6 done');
  await expect(view.placeholders).toHaveCount(0);
  expect(imageGenerations(emulator), 'each cell was sent once, restart or not').toBe(6);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="view-experiments"]').analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    expect(serious, `the matrix in ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });

  await view.readHeaders();

  // Each output in its true shape, opening the viewer.
  const wide = view.cell(headers.rows[0] ?? '', '16:9').getByTestId('cell-output');
  const tall = view.cell(headers.rows[1] ?? '', '9:16').getByTestId('cell-output');
  expect(Number(await wide.getAttribute('data-aspect'))).toBeGreaterThan(1.3);
  expect(Number(await tall.getAttribute('data-aspect'))).toBeLessThan(0.8);
  await wide.getByRole('button', { name: /^Open / }).click();
  await expect(page.getByTestId('asset-view')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('asset-view')).toHaveCount(0);

  // A winner: the star is the Library's favourite.
  const star = wide.getByRole('button', { name: /^Favourite / });
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  const wideId = (await wide.getAttribute('data-asset-id')) ?? '';
  await expect
    .poll(
      async () =>
        (await invokeInPage<{ favorite: boolean }>(page, 'assets:get', { kind: 'image', id: wideId })).favorite,
    )
    .toBe(true);

  // Compare selected: the two chosen outputs side by side in the existing compare view.
  await expect(view.compareSelected).toBeDisabled();
  await wide.getByRole('checkbox', { name: /^Select .* for Compare$/ }).check();
  await tall.getByRole('checkbox', { name: /^Select .* for Compare$/ }).check();
  await expect(view.compareSelected).toHaveText('Compare selected (2)');
  await view.compareSelected.click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toBeVisible();
  await expect(compare.getByTestId('compare-image')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(compare).toHaveCount(0);

  // Use these settings: the cell's model, prompt and aspect ratio in Create.
  const second = started.rows[1];
  await view
    .cell(second?.label ?? '', '9:16')
    .getByRole('button', { name: /^Use these settings/ })
    .click();
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();
  await expect(form.model).toHaveValue(second?.value ?? '');
  await expect(form.prompt).toHaveValue(PROMPT);
  await expect(form.field('aspectRatio').getByRole('radio', { name: '9:16' })).toHaveAttribute('aria-checked', 'true');

  // The service goes away; the app restarts and reopens the matrix from the library.
  await emulator.close();
  emulator = undefined;
  app = await app.restart();
  await page.goto(app.url);
  await expect(shell.connection).toHaveText("Can't reach the service", { timeout: 20_000 });
  await shell.goTo('experiments');
  await view.openExperiment(NAME);
  await expect(view.cells).toHaveCount(6);
  await expect(view.outputs).toHaveCount(6);
  await expect(view.progress).toHaveText('6 of 6 done');
  await expect
    .poll(() =>
      view.outputs
        .locator('img')
        .evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length),
    )
    .toBe(6);
  await expect(view.cell(headers.rows[0] ?? '', '16:9').getByRole('button', { name: /^Favourite / })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('Pause holds the cells not sent yet and says why, Resume and Cancel the rest act on them; Delete asks, then forgets the experiment', async ({
  page,
}) => {
  test.setTimeout(180_000);
  emulator = await startEmulator({ port: 0, timeScale: 2 });
  // Each generation answered after 8 s: the batch's 4 sending slots stay full while the buttons are pressed.
  emulator.control.setFaults({ rules: [{ method: 'POST', path: '/images/generation', latencyMs: 8_000 }] });
  const baseUrl = emulator.url;
  app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl } }));
  });
  await page.goto(app.url);
  const shell = new AppShellPage(page);
  await expect(shell.connection).toHaveText('Online', { timeout: 20_000 });
  await shell.goTo('experiments');
  const view = new ExperimentsPage(page);
  await expect(view.root.getByTestId('experiments-empty')).toBeVisible();
  await invokeInPage(page, 'experiments:start', {
    base: { kind: 'image', body: { modelID: 'imagea', prompt: PROMPT } },
    axes: [
      { kind: 'model', values: MODELS },
      { kind: 'aspectRatio', values: RATIOS },
    ],
    name: NAME,
  });
  await view.openExperiment(NAME);
  await expect(view.cells).toHaveCount(6);

  // Pause: the reason under the bar, the cells not sent yet say so.
  await view.toolbar.getByRole('button', { name: 'Pause' }).click();
  await expect(view.paused).toHaveText('Paused by you.');
  await expect(view.toolbar.getByTestId('experiment-state')).toHaveText('Paused');
  await expect(view.cells.getByTestId('cell-status').filter({ hasText: 'Not sent: paused by you.' })).toHaveCount(2);

  // Resume, then cancel the rest before a slot frees: the 2 cells are never sent.
  await view.toolbar.getByRole('button', { name: 'Resume' }).click();
  await expect(view.paused).toHaveCount(0);
  await expect(view.toolbar.getByTestId('experiment-state')).toHaveText('Running');
  await view.toolbar.getByRole('button', { name: 'Cancel the rest' }).click();
  await expect(view.toolbar.getByTestId('experiment-state')).toHaveText('Cancelled');
  const cancelled = view.cells.getByTestId('cell-status').filter({ hasText: 'Not sent: the rest was cancelled' });
  await expect(cancelled).toHaveCount(2);
  await expect(view.toolbar.getByRole('button', { name: 'Cancel the rest' })).toHaveCount(0);
  // The 4 sent finish; nothing else is sent (waited past their 8 s answers).
  await expect(view.outputs).toHaveCount(4, { timeout: 120_000 });
  expect(imageGenerations(emulator)).toBe(4);
  await expect(cancelled).toHaveCount(2);
  // A finished cell says what the service charged for it once its job reported it (else its estimate,
  // none here: the account has no history); the cells' charges add up to the experiment's credits used.
  const charged = async () => {
    const costs = await view.cells.getByTestId('cell-cost').allTextContents();
    return costs.reduce((sum, text) => sum + Number(/^(\d+) credits?$/.exec(text.trim())?.[1] ?? 0), 0);
  };
  const used = async () => Number(/(\d+) credits? used/.exec((await view.toolbar.textContent()) ?? '')?.[1] ?? 0);
  await expect.poll(charged, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect.poll(async () => (await charged()) === (await used()), { timeout: 30_000 }).toBe(true);

  // Delete asks first; Cancel keeps it, the confirmation forgets it (its pictures stay in the Library).
  await view.toolbar.getByRole('button', { name: 'Delete experiment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this experiment?' });
  await expect(dialog).toContainText('Its jobs stay in Jobs and its pictures in the Library');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await view.back.click();
  await expect(view.row(NAME)).toBeVisible();
  await view.row(NAME).getByRole('button', { name: NAME, exact: true }).press('Delete');
  await dialog.getByRole('button', { name: 'Delete experiment' }).click();
  await expect(view.rows).toHaveCount(0);
  await expect(view.root.getByTestId('experiments-empty')).toBeVisible();
  expect((await invokeInPage<unknown[]>(page, 'experiments:list')).length).toBe(0);
  expect((await invokeInPage<{ items: unknown[] }>(page, 'assets:list', {})).items).toHaveLength(4);
});

test('a failed cell says why, and "Try again" sends its request once more: the cell follows the new job', async ({
  page,
}) => {
  test.setTimeout(150_000);
  emulator = await startEmulator({ port: 0, timeScale: 4 });
  emulator.control.setFaults({
    jobFailure: { count: 1, kinds: ['image'], message: 'The renderer ran out of memory.' },
  });
  const baseUrl = emulator.url;
  app = await startBrowserModeApp([], { ATELIER_API_KEY: KEY }, (dataDir) => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl } }));
  });
  await page.goto(app.url);
  const shell = new AppShellPage(page);
  await expect(shell.connection).toHaveText('Online', { timeout: 20_000 });
  await shell.goTo('experiments');
  const view = new ExperimentsPage(page);
  await invokeInPage(page, 'experiments:start', {
    base: { kind: 'image', body: { modelID: 'imagea', prompt: PROMPT } },
    axes: [{ kind: 'model', values: ['imagea', 'imageb'] }],
    name: NAME,
  });
  await view.openExperiment(NAME);
  await expect(view.cells).toHaveCount(2);
  expect((await view.readHeaders()).columns).toEqual(['Results']);
  const failed = view.cells.filter({ has: page.getByTestId('cell-status').filter({ hasText: /^Failed: / }) });
  await expect(failed).toHaveCount(1, { timeout: 90_000 });
  await expect(failed.getByTestId('cell-status')).toContainText('The renderer ran out of memory.');
  await expect(view.progress).toHaveText('1 of 2 done · 1 failed', { timeout: 60_000 });
  await failed.getByRole('button', { name: /^Try again/ }).click();
  await expect(view.outputs).toHaveCount(2, { timeout: 90_000 });
  await expect(view.progress).toHaveText('2 of 2 done');
  await expect(view.cells.getByRole('button', { name: /^Try again/ })).toHaveCount(0);
  expect(imageGenerations(emulator)).toBe(3);
});
