// "Try across models…" from the user's seat: one prompt over three models of three families × two aspect
// ratios shows its six cells before anything is sent — on a new account each says it has no estimate yet;
// once those jobs are charged, the same experiment shows each cell's estimate and the total — and Send
// sends exactly six requests, each valid by its family's strict rules (the emulator refuses any other).
// A daily cap below the estimate is said in the dialog and stops the plain send; "Send anyway" sends it.
// A setting a model does not take is said under the grid, by model, and its cells are marked.
import type { Page } from '@playwright/test';
import { NO_FAULTS, startFaultProxy, type ProxyRecord } from '../emulator/fault-proxy.ts';
import { expect, imageGenerations, SERVICE_KEY, serviceTest as test } from './fixtures/service-account.ts';
import { generateAndWait, invokeInPage, recordChannelCalls } from './pages/contract-client.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { ExperimentDialogPage } from './pages/experiment-dialog-page.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { ExperimentsPage } from './pages/experiments-page.ts';

// A key of its own for the cap test: the first test's jobs on the service are not its account's.
const CAP_KEY = 'cap-test-key';
test.use({ emulatorOptions: { timeScale: 20, apiKeys: [SERVICE_KEY, CAP_KEY] } });

interface EstimateLike {
  credits: number | null;
}
interface ExperimentLike {
  id: number;
  state: string;
}

/** Jobs like `bodies` in the account's history, finished and charged, so each has an estimate. */
async function history(page: Page, bodies: Record<string, unknown>[]): Promise<void> {
  await generateAndWait(
    page,
    bodies.map((body) => ({ kind: 'image' as const, body })),
  );
  for (const body of bodies) {
    await expect
      .poll(async () => (await invokeInPage<EstimateLike>(page, 'jobs:estimate', { kind: 'image', body })).credits, {
        timeout: 30_000,
      })
      .not.toBeNull();
  }
}

/** Waits until the newest experiment has sent everything it will send; its id. */
async function experimentDone(page: Page): Promise<number> {
  await expect
    .poll(async () => (await invokeInPage<ExperimentLike[]>(page, 'experiments:list'))[0]?.state, { timeout: 60_000 })
    .toBe('done');
  return (await invokeInPage<ExperimentLike[]>(page, 'experiments:list'))[0]!.id;
}

/** Waits until the service has charged every cell's job, so each cell's request has an estimate. */
async function charged(page: Page, id: number): Promise<void> {
  const detail = await invokeInPage<{ cells: { body: Record<string, unknown> }[] }>(page, 'experiments:get', { id });
  for (const { body } of detail.cells) {
    await expect
      .poll(async () => (await invokeInPage<EstimateLike>(page, 'jobs:estimate', { kind: 'image', body })).credits, {
        timeout: 45_000,
      })
      .not.toBeNull();
  }
}

/** Image A (the form's model, ticked already), Image B and Image C 2 × 1:1 (the form's, ticked) and 16:9. */
async function chooseThreeModelsTwoRatios(dialog: ExperimentDialogPage): Promise<void> {
  await expect(dialog.value(1, 'Image A')).toBeChecked();
  await dialog.tick(1, ['Image B', 'Image C 2']);
  await dialog.addSecondAxis.click();
  await expect(dialog.axis(2).getByRole('combobox', { name: 'Vary' })).toHaveValue('aspectRatio');
  await expect(dialog.value(2, '1:1')).toBeChecked();
  await dialog.tick(2, ['16:9']);
}

const MODELS = [
  { id: 'imagea', name: 'Image A', credits: 1 },
  { id: 'imageb', name: 'Image B', credits: 1 },
  { id: 'imagec-2', name: 'Image C 2', credits: 2 },
];
const RATIOS = ['1:1', '16:9'];
const PROMPT = 'a lighthouse at dusk, long exposure';

test('3 models × 2 aspect ratios: six cells with their estimates before sending, then exactly six valid requests', async ({
  page,
  freshApp,
  emulator,
}) => {
  test.setTimeout(180_000);
  // A door in front of the emulator that writes down every request's body and the emulator's answer.
  const proxy = await startFaultProxy({ target: emulator.url, seed: 1, mix: NO_FAULTS });
  try {
    await page.goto(freshApp.url);
    await new FirstRunPage(page).enterKey(proxy.url, SERVICE_KEY);
    const form = new CreateImagePage(page);
    await expect(form.prompt).toBeVisible();
    const channels = recordChannelCalls(page);
    const dialog = new ExperimentDialogPage(page);
    const shell = new AppShellPage(page);
    const combos = MODELS.flatMap((m) => RATIOS.map((ratio) => `${m.id} ${ratio}`)).sort();

    /** Sends the experiment the dialog shows and checks what the strict emulator received: exactly its six cells. */
    async function sendAndCheck(): Promise<void> {
      const seen = proxy.records().length;
      const generations = (): ProxyRecord[] =>
        proxy
          .records()
          .slice(seen)
          .filter((r) => r.method === 'POST' && r.url.split('?')[0] === '/images/generation');
      expect(generations(), 'a request was sent before Send').toHaveLength(0);
      expect(channels).not.toContain('experiments:start');
      await dialog.send.click();
      await expect(dialog.root).toHaveCount(0);
      // The experiment opens at once: its matrix, six cells.
      const experiments = new ExperimentsPage(page);
      await expect(experiments.matrix).toBeVisible();
      await expect(experiments.cells).toHaveCount(6);
      await expect.poll(() => generations().length, { timeout: 30_000 }).toBe(6);
      const id = await experimentDone(page);
      channels.length = 0;
      const sent = generations();
      expect(sent, 'more requests than cells').toHaveLength(6);
      // The emulator took every one (it answers 400 to a request its family's rules refuse).
      expect(sent.map((r) => [r.fate, r.upstreamStatus])).toEqual(Array(6).fill(['forwarded', 200]));
      const bodies = sent.map((r) => r.body as Record<string, unknown>);
      expect(bodies.map((b) => `${String(b['modelID'])} ${String(b['aspectRatio'])}`).sort()).toEqual(combos);
      for (const body of bodies) expect(body['prompt']).toBe(PROMPT);
      await charged(page, id);
    }

    // A new account: no history, so each cell says it has no estimate yet; the six are sent.
    await form.prompt.fill(PROMPT);
    await dialog.openFrom(form);
    await expect(dialog.root).toBeVisible();
    await chooseThreeModelsTwoRatios(dialog);
    await expect(dialog.cells).toHaveCount(6);
    await expect(dialog.cells).toHaveText(Array(6).fill('no estimate yet'));
    await expect(dialog.summary).toHaveText(/^6 jobs · cost unknown · /);
    await expect(dialog.send).toHaveAccessibleName('Send 6 jobs (cost unknown)');
    await sendAndCheck();

    // The same experiment again, now with the account's history: each cell's estimate and the total before sending.
    await shell.goTo('create-image');
    await dialog.openFrom(form);
    await chooseThreeModelsTwoRatios(dialog);
    await expect(dialog.cells).toHaveCount(6);
    await expect(dialog.grid.getByRole('columnheader', { name: '16:9' })).toBeVisible();
    for (const model of MODELS) {
      const each = `about ${model.credits} credit${model.credits === 1 ? '' : 's'}`;
      await expect(dialog.rowCells(model.name)).toHaveText([each, each]);
    }
    await expect(dialog.summary).toHaveText(/^6 jobs · about 8 credits · about \d+ (s|min)$/);
    await expect(dialog.send).toHaveAccessibleName('Send 6 jobs (about 8 credits)');
    await expect(dialog.refused).toHaveCount(0);
    await sendAndCheck();
  } finally {
    await proxy.close();
  }
});

test('a daily cap below the estimate stops the send and says why; “Send anyway” sends it', async ({
  page,
  freshApp,
  emulator,
}) => {
  test.setTimeout(120_000);
  await page.goto(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, CAP_KEY);
  const form = new CreateImagePage(page);
  await expect(form.prompt).toBeVisible();
  // 2 credits spent today (imagea-2 costs 2 an image on the emulator), then a daily cap of 3.
  await history(page, [{ modelID: 'imagea-2', prompt: 'history', aspectRatio: '1:1', numImages: 1 }]);
  await invokeInPage(page, 'budget:set-caps', { daily: 3, monthly: null });
  emulator.control.resetStats();
  const channels = recordChannelCalls(page);

  await form.chooseModel('imagea-2');
  await form.prompt.fill('a tin robot');
  const dialog = new ExperimentDialogPage(page);
  await dialog.openFrom(form);
  await dialog.vary(1, 'Prompt variants');
  await dialog.typed(1, 'Prompt variants').fill('a tin robot on a shelf\na brass robot in the rain');

  await expect(dialog.cells).toHaveCount(2);
  await expect(dialog.summary).toHaveText(/^2 jobs · about 4 credits · /);
  await expect(dialog.overBudget).toContainText('This needs about 4 credits; 2 of your 3 daily credits are used.');
  await expect(dialog.send).toBeDisabled();
  await expect(dialog.send).toHaveAccessibleDescription(/Over your cap: tick “Send anyway \(over my cap\)” to send\./);
  // Enter in a field never sends.
  await dialog.name.press('Enter');
  await expect(dialog.root).toBeVisible();
  expect(channels).not.toContain('experiments:start');
  expect(imageGenerations(emulator)).toBe(0);

  await dialog.sendAnyway.check();
  await expect(dialog.send).toBeEnabled();
  await dialog.send.click();
  await expect(dialog.root).toHaveCount(0);
  await expect.poll(() => imageGenerations(emulator), { timeout: 30_000 }).toBe(2);
  await experimentDone(page);
  expect(imageGenerations(emulator)).toBe(2);
});

test('settings a model does not take are said per model before sending; the cell is marked', async ({
  page,
  signIn,
}) => {
  await signIn();
  const form = new CreateImagePage(page);
  // Image C 2 with PNG output: Image A has no output format, so its cells drop it.
  await form.chooseModel('imagec-2');
  await form.pickSegment('outputFormat', 'PNG');
  await form.prompt.fill('a glass teapot');
  const dialog = new ExperimentDialogPage(page);
  await dialog.openFrom(form);
  await expect(dialog.value(1, 'Image C 2')).toBeChecked();
  await dialog.tick(1, ['Image A']);
  await expect(dialog.cells).toHaveCount(2);
  await expect(dialog.rowCells('Image A')).toContainText(/\d settings? changed/);
  await expect(dialog.rowCells('Image C 2')).not.toContainText('changed');
  await expect(dialog.notes).toContainText(/Image A: output format dropped/i);
  await expect(dialog.notes).not.toContainText('Image C 2');
  await expect(dialog.notes).not.toContainText('outputFormat');
});
