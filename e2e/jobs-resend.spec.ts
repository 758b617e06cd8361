// Resending what the service did not take (issue 28): a 429 on a generation request leaves the job
// waiting on its row ("Waiting 2 s: the service is busy"), and it is then sent again as the same job;
// a waiting resend can be cancelled from the Jobs view ("Don't send again"), which ends it as not sent.
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { JobsPage } from './pages/jobs-page.ts';

let emulator: RunningEmulator;

test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
test.afterAll(async () => {
  await emulator.close();
});

const posts = () => emulator.control.stats().byRoute['POST /images/generation'] ?? 0;

test('a busy answer to Generate waits on the job’s row and sends the same job again; a waiting resend can be cancelled', async ({
  page,
  freshApp,
}) => {
  test.setTimeout(90_000);
  const shell = new AppShellPage(page);
  await shell.open(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, 'demo-key');
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();
  emulator.control.resetStats();

  emulator.control.setFaults({
    rules: [{ method: 'POST', path: '/images/generation', rateLimit: { count: 1, retryAfterSeconds: 2 } }],
  });
  await form.chooseModel('imagea');
  await form.prompt.fill('a heron in the reeds');
  await form.generate.click();
  const jobs = new JobsPage(page);
  await jobs.open();
  const row = jobs.rows.filter({ hasText: 'a heron in the reeds' });
  await expect(row).toHaveCount(1);
  await expect.poll(posts, { timeout: 15_000 }).toBe(2);
  await expect(row).not.toHaveAttribute('data-state', 'submitting', { timeout: 15_000 });
  await expect(jobs.rows.filter({ hasText: 'a heron in the reeds' })).toHaveCount(1);

  // A long wait: the row says why and counts down; "Don't send again" ends it, nothing was sent.
  emulator.control.setFaults({
    rules: [{ method: 'POST', path: '/images/generation', rateLimit: { count: 1, retryAfterSeconds: 50 } }],
  });
  await page.getByTestId('nav-create-image').click();
  await form.prompt.fill('a lantern on a jetty');
  await form.generate.click();
  await jobs.open();
  const waiting = jobs.rows.filter({ hasText: 'a lantern on a jetty' });
  await expect(waiting.getByTestId('job-resend')).toContainText(/Waiting \d+ s: the service is busy/);
  await expect(waiting.getByTestId('job-resend-countdown')).toHaveText(/Sending again in \d+ s\./);
  await waiting.getByRole('button', { name: "Don't send again" }).click();
  await expect(waiting).toHaveAttribute('data-state', 'failed');
  await expect(waiting.getByTestId('job-error')).toContainText('cancelled');
  expect(posts()).toBe(3);
});
