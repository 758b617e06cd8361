// Batches from Create, from the user's seat: a CSV of 20 rows, two of them invalid, planned live in
// the Batch dialog (the two listed with their row numbers and the rules' reasons, never sent), sent
// as exactly 18 requests; the batch's progress in Jobs, paused and resumed. A prompt list with an
// {a|b} wildcard counts its expansions before anything is sent.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { AppShellPage } from './pages/app-shell-page.ts';
import { BatchDialogPage, BatchesSectionPage } from './pages/batch-page.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { CreateVideoPage } from './pages/create-video-page.ts';
import { expect, imageGenerations as generations, serviceTest as test } from './fixtures/service-account.ts';

test.use({ emulatorOptions: { timeScale: 20 } });

/** Longer than the dialog's pause before it plans, so a plan (and a send that should not happen) had its chance. */
const PLAN_SETTLES_MS = 1_500;

/** Serious or critical accessibility findings inside `selector`, by rule id. */
async function seriousFindings(page: Page, selector: string): Promise<string[]> {
  await page.waitForTimeout(250); // transitions settle, so colours are the final ones
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

function csvOf20(): string {
  const lines = ['prompt,model,num-images'];
  for (let row = 1; row <= 20; row++) {
    if (row === 4) lines.push(`robot number ${row},imagea,9`);
    else if (row === 11) lines.push(`robot number ${row},imagez,1`);
    else lines.push(`robot number ${row},imagea,1`);
  }
  return `${lines.join('\n')}\n`;
}

test('a CSV of 20 rows with 2 invalid: the 2 listed by row and reason, 18 sent; Jobs shows it, pause and resume', async ({
  page,
  signIn,
  emulator,
}) => {
  test.setTimeout(120_000);
  await signIn();
  const form = new CreateImagePage(page);
  const batch = new BatchDialogPage(page);
  emulator.control.resetStats();
  // Each generation answered 1.5 s late: a batch of 18, four at a time, is still sending when paused.
  emulator.control.setFaults({ rules: [{ method: 'POST', path: '/images/generation', latencyMs: 1_500 }] });

  await batch.open(form.root);
  await batch.useCsv();
  // Not a text file: refused in words, nothing planned.
  await batch.chooseFile('photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]), 'image/png');
  await expect(batch.fileProblem).toContainText('“photo.png” is not a text file');
  await expect(batch.send).toBeDisabled();

  await batch.chooseFile('robots.csv', csvOf20());
  await expect(batch.headline).toHaveText(/^18 jobs from 20 rows · /);
  await expect(batch.refusedRows).toHaveCount(2);
  await expect(batch.refusedRows.nth(0)).toContainText(/^Row 4: .*numImages/);
  await expect(batch.refusedRows.nth(1)).toContainText(/^Row 11: .*imagez/);
  await expect(batch.dialog.getByTestId('batch-refused')).toContainText('never sent');
  await expect(batch.send).toHaveText('Send 18 jobs');
  await expect(batch.send).toBeEnabled();
  expect(await seriousFindings(page, '[data-testid="batch-dialog"]')).toEqual([]);
  await page.waitForTimeout(PLAN_SETTLES_MS);
  expect(generations(emulator), 'planning sent something').toBe(0);

  await batch.send.click();
  await expect(batch.dialog).toHaveCount(0);

  const shell = new AppShellPage(page);
  await shell.goTo('jobs');
  const section = new BatchesSectionPage(page);
  const row = section.row('robot number 1');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('batch-progress')).toContainText(/of 18 sent · \d+ done · 2 refused/);
  await row.getByRole('button', { name: 'Pause' }).click();
  await expect(row.getByTestId('batch-state')).toHaveText('Paused');
  await expect(row.getByTestId('batch-paused-reason')).toHaveText('Paused by you.');
  expect(await seriousFindings(page, '[data-testid="jobs-batches"]')).toEqual([]);
  // What was handed over before the pause arrives; after that nothing more is sent.
  await page.waitForTimeout(2_000);
  const atPause = generations(emulator);
  expect(atPause).toBeLessThan(18);
  await page.waitForTimeout(3_000);
  expect(generations(emulator), 'a paused batch kept sending').toBe(atPause);
  await expect(row.getByTestId('batch-progress')).toContainText(`${atPause} of 18 sent`);

  await row.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => generations(emulator), { timeout: 30_000 }).toBe(18);
  await expect(row.getByTestId('batch-state')).toHaveText('Everything sent', { timeout: 15_000 });
  await expect(row.getByTestId('batch-progress')).toContainText('18 of 18 sent');
  await expect(row.getByTestId('batch-progress')).toContainText('2 refused');
  await expect(row.getByTestId('batch-progress')).toContainText('18 done', { timeout: 60_000 });
  expect(generations(emulator), 'a refused row was sent').toBe(18);

  await row.getByRole('button', { name: /Show refused rows/ }).click();
  const refused = row.getByRole('list', { name: /^Refused rows/ }).getByRole('listitem');
  await expect(refused).toHaveCount(2);
  await expect(refused.nth(0)).toContainText(/^Row 4: /);
  await expect(refused.nth(1)).toContainText(/^Row 11: /);
});

test('a prompt list with a {a|b} wildcard counts its expansions before sending, then sends them', async ({
  page,
  signIn,
  emulator,
}) => {
  test.setTimeout(90_000);
  await signIn();
  const form = new CreateImagePage(page);
  const batch = new BatchDialogPage(page);
  emulator.control.resetStats();

  await batch.open(form.root);
  await expect(batch.prompts).toBeFocused();
  await expect(batch.dialog).toContainText("a row's own cells win");
  await batch.prompts.fill('a {red|green|blue} car\n\na paper boat');
  await expect(batch.headline).toHaveText(/^4 jobs from 2 lines · /);
  await expect(batch.expansion).toContainText('2 lines → 4 jobs');
  await expect(batch.send).toHaveText('Send 4 jobs');
  await page.waitForTimeout(PLAN_SETTLES_MS);
  expect(generations(emulator), 'planning sent something').toBe(0);

  // Esc closes without sending; the text is still there when it opens again.
  await page.keyboard.press('Escape');
  await expect(batch.dialog).toHaveCount(0);
  await batch.open(form.root);
  await expect(batch.send).toHaveText('Send 4 jobs');

  await batch.send.click();
  await expect(batch.dialog).toHaveCount(0);
  await expect.poll(() => generations(emulator), { timeout: 30_000 }).toBe(4);
  await page.waitForTimeout(PLAN_SETTLES_MS);
  expect(generations(emulator)).toBe(4);
});

test('"Cancel the rest" asks with the count, then sends nothing more; what was sent goes on', async ({
  page,
  signIn,
  emulator,
}) => {
  test.setTimeout(90_000);
  await signIn();
  const form = new CreateImagePage(page);
  const batch = new BatchDialogPage(page);
  emulator.control.resetStats();
  emulator.control.setFaults({ rules: [{ method: 'POST', path: '/images/generation', latencyMs: 2_000 }] });

  await batch.open(form.root);
  await batch.prompts.fill(Array.from({ length: 12 }, (_, i) => `a lantern, take ${i + 1}`).join('\n'));
  await expect(batch.send).toHaveText('Send 12 jobs');
  await batch.send.click();
  await new AppShellPage(page).goTo('jobs');
  const row = new BatchesSectionPage(page).row('a lantern, take 1');
  await expect(row.getByTestId('batch-progress')).toContainText('of 12 sent');

  await row.getByRole('button', { name: 'Cancel the rest' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel the rest of this batch?' });
  await expect(confirm).toContainText(/\d+ jobs of “a lantern, take 1/);
  const rest = Number(/(\d+) jobs of/.exec((await confirm.textContent()) ?? '')?.[1]);
  expect(rest).toBeGreaterThan(0);
  await expect(confirm.getByRole('button', { name: `Cancel ${rest} jobs` })).toBeVisible();
  // The safe answer first: "Keep sending" cancels nothing.
  await confirm.getByRole('button', { name: 'Keep sending' }).click();
  await expect(row.getByTestId('batch-state')).toHaveText('Sending');
  await row.getByRole('button', { name: 'Cancel the rest' }).click();
  await confirm.getByRole('button', { name: /^Cancel \d+ jobs?$/ }).click();
  await expect(row.getByTestId('batch-state')).toHaveText('Cancelled');
  await expect(row.getByRole('button', { name: 'Cancel the rest' })).toHaveCount(0);
  // The requests under way when it was cancelled arrive; nothing after them (longer than one request's 2 s).
  await page.waitForTimeout(2_500);
  const sent = generations(emulator);
  await page.waitForTimeout(3_000);
  expect(generations(emulator), 'a cancelled batch kept sending').toBe(sent);
  expect(sent).toBeLessThan(12);
  await expect(row.getByTestId('batch-progress')).toContainText(`${sent} of 12 sent`);
  await expect(row.getByTestId('batch-progress')).toContainText(`${12 - sent} cancelled`);
});

test('a batch over the daily cap says so with the numbers and sends nothing; "Send anyway, past my cap" sends it all', async ({
  page,
  signIn,
  emulator,
}) => {
  test.setTimeout(120_000);
  await signIn();
  const shell = new AppShellPage(page);
  const form = new CreateImagePage(page);
  // One job first: the estimate of the next ones comes from it (imagea-2: 2 credits an image).
  await form.chooseModel('imagea-2');
  await form.prompt.fill('a tin robot on a shelf');
  await form.generate.click();
  const result = form.root.getByTestId('result-job').first();
  await expect(result).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  await expect(result.getByTestId('result-credits')).toHaveText('2 credits', { timeout: 15_000 });

  await shell.goTo('settings');
  await page.getByRole('textbox', { name: 'Daily credit cap' }).fill('3');
  await page.getByRole('button', { name: 'Save caps' }).click();
  await expect(page.getByText('Caps saved.')).toBeVisible();

  await shell.goTo('create-image');
  emulator.control.resetStats();
  const batch = new BatchDialogPage(page);
  await batch.open(form.root);
  await batch.prompts.fill('a brass lamp\na paper chair');
  await expect(batch.headline).toHaveText('2 jobs from 2 lines · about 4 credits');
  const over = batch.dialog.getByTestId('batch-over-budget');
  await expect(over).toContainText(
    'Over your credit cap. This needs about 4 credits; 2 of your 3 daily credits are used.',
  );
  await expect(batch.send).toBeDisabled();
  await expect(batch.send).toHaveAccessibleDescription(/tick “Send anyway, past my cap”/);
  await page.waitForTimeout(PLAN_SETTLES_MS);
  expect(generations(emulator), 'a batch over the cap was sent without the override').toBe(0);

  await batch.dialog.getByRole('checkbox', { name: 'Send anyway, past my cap' }).check();
  await expect(batch.send).toBeEnabled();
  await batch.send.click();
  await expect(batch.dialog).toHaveCount(0);
  await expect.poll(() => generations(emulator), { timeout: 30_000 }).toBe(2);
  await shell.goTo('jobs');
  const row = new BatchesSectionPage(page).row('a brass lamp');
  await expect(row.getByTestId('batch-state')).toHaveText('Everything sent');
  await expect(row.getByTestId('batch-progress')).toContainText('2 of 2 sent');
});

test('a CSV dropped on the dialog is read; a file too large is refused in words; Create video sends video jobs', async ({
  page,
  signIn,
  emulator,
}) => {
  test.setTimeout(90_000);
  await signIn();
  const batch = new BatchDialogPage(page);
  const image = new CreateImagePage(page);
  await batch.open(image.root);
  await batch.useCsv();
  // More than 1 MB: refused by name and size, nothing planned.
  await batch.chooseFile('huge.csv', `prompt\n${'a very long prompt '.repeat(60_000)}\n`);
  await expect(batch.fileProblem).toContainText('“huge.csv” is 1.1 MB; a batch file can be at most 1 MB.');
  await expect(batch.headline).toHaveCount(0);
  // A column the batch does not know: the whole file is refused by name, nothing can be sent.
  await batch.chooseFile('colours.csv', 'prompt,colour\na red kite,red\n');
  await expect(batch.dialog.getByRole('alert')).toContainText('unknown column "colour"');
  await expect(batch.send).toBeDisabled();
  await expect(batch.send).toHaveAccessibleDescription('Nothing can be sent until the problem above is fixed.');
  await batch.dropFile('dropped.csv', 'prompt,aspect-ratio\na wide field,16:9\na tall tower,9:16\n');
  await expect(batch.dialog).toContainText('Read from “dropped.csv”');
  await expect(batch.fileProblem).toHaveCount(0);
  await expect(batch.headline).toHaveText(/^2 jobs from 2 rows · /);
  await page.keyboard.press('Escape');
  await expect(batch.dialog).toHaveCount(0);

  // Create video: its form's model is every row's, and the jobs are videos.
  await new AppShellPage(page).goTo('create-video');
  const video = new CreateVideoPage(page);
  await video.chooseModel('videoa-3.1');
  emulator.control.resetStats();
  await batch.open(video.root);
  await batch.prompts.fill('a slow pan over {hills|dunes}');
  await expect(batch.headline).toHaveText(/^2 jobs from 1 line · /);
  await expect(batch.dialog.getByTestId('batch-shared')).toContainText('Video A');
  await batch.send.click();
  await expect
    .poll(() => emulator.control.stats().byRoute['POST /videos/generation'] ?? 0, { timeout: 30_000 })
    .toBe(2);
  expect(emulator.control.stats().byRoute['POST /images/generation'] ?? 0).toBe(0);
});

test('a running batch stops at a cap set meanwhile and says why; "Resume past the cap" sends the rest', async ({
  page,
  signIn,
  emulator,
}) => {
  test.setTimeout(120_000);
  await signIn();
  const shell = new AppShellPage(page);
  const form = new CreateImagePage(page);
  // Two credits spent today first (imagea-2: 2 credits an image).
  await form.chooseModel('imagea-2');
  await form.prompt.fill('a tin robot on a shelf');
  await form.generate.click();
  const result = form.root.getByTestId('result-job').first();
  await expect(result.getByTestId('result-credits')).toHaveText('2 credits', { timeout: 60_000 });

  // No cap yet: the batch starts; each generation is answered 3 s late, so it is still sending below.
  emulator.control.resetStats();
  emulator.control.setFaults({ rules: [{ method: 'POST', path: '/images/generation', latencyMs: 3_000 }] });
  const batch = new BatchDialogPage(page);
  await batch.open(form.root);
  await batch.prompts.fill(Array.from({ length: 12 }, (_, i) => `a copper kettle, take ${i + 1}`).join('\n'));
  await expect(batch.send).toHaveText('Send 12 jobs');
  await expect(batch.dialog.getByTestId('batch-over-budget')).toHaveCount(0);
  await batch.send.click();

  await shell.goTo('settings');
  await page.getByRole('textbox', { name: 'Daily credit cap' }).fill('3');
  await page.getByRole('button', { name: 'Save caps' }).click();
  await expect(page.getByText('Caps saved.')).toBeVisible();

  await shell.goTo('jobs');
  const row = new BatchesSectionPage(page).row('a copper kettle, take 1');
  await expect(row.getByTestId('batch-state')).toHaveText('Stopped at your cap', { timeout: 20_000 });
  await expect(row.getByTestId('batch-paused-reason')).toContainText(
    /^Stopped at your credit cap\. .*of your 3 daily credits are used|^Stopped at your credit cap\. Your daily cap of 3 credits is used up/,
  );
  await page.waitForTimeout(4_000); // longer than one generation's 3 s: what was under way has arrived
  const atStop = generations(emulator);
  expect(atStop).toBeLessThan(12);
  await page.waitForTimeout(3_500);
  expect(generations(emulator), 'a batch stopped at the cap kept sending').toBe(atStop);

  await row.getByRole('button', { name: 'Resume past the cap' }).click();
  await expect.poll(() => generations(emulator), { timeout: 40_000 }).toBe(12);
  await expect(row.getByTestId('batch-state')).toHaveText('Everything sent', { timeout: 15_000 });
});
