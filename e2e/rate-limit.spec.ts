// "Rate limited" in the status bar beyond library refreshes: a 429 with Retry-After while checking jobs
// says so, with what waits and for how long, and clears by itself once the wait is over; the job then
// finishes. The emulator runs in this process so the test can set its fault knobs and move its clock.
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

const RETRY_AFTER_SECONDS = 8;
let emulator: RunningEmulator;

test.beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
test.afterAll(async () => {
  await emulator.close();
});

test('a 429 while checking jobs shows rate limited with its wait, then clears and the job finishes', async ({
  page,
  freshApp,
}) => {
  test.setTimeout(90_000);
  const shell = new AppShellPage(page);
  await shell.open(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, 'demo-key');
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();
  await expect(shell.connection).toHaveText('Online');

  // The next check of the jobs is refused once, with a Retry-After the engine must honour: one job in
  // flight is checked with GET /jobs/{id}, several with the paged GET /jobs; either one answers 429.
  const rateLimit = { count: 1, retryAfterSeconds: RETRY_AFTER_SECONDS };
  emulator.control.setFaults({
    rules: [
      { method: 'GET', path: '/jobs/:id', rateLimit },
      { method: 'GET', path: '/jobs', rateLimit },
    ],
  });
  await form.chooseModel('imagea');
  await form.prompt.fill('a weather vane in a gale');
  await form.generate.click();
  const job = form.root.getByTestId('result-job').first();
  await expect(job).toBeVisible();

  await expect(shell.connection).toHaveText(/^Rate limited · checking jobs again in \d+ s$/, { timeout: 20_000 });
  await expect(shell.connection).toHaveClass(/rate-limited/);
  const seconds = Number(/in (\d+) s/.exec((await shell.connection.textContent()) ?? '')?.[1]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(RETRY_AFTER_SECONDS + 1);
  await screenshotBothSchemes(page, 'status-bar-rate-limited');

  // The service's job is done meanwhile; once the wait is over the check runs again and finds it.
  emulator.control.advanceClock(60_000);
  await expect(shell.connection).toHaveText('Online', { timeout: (RETRY_AFTER_SECONDS + 5) * 1000 });
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 30_000 });
  const left = (emulator.control.faults().rules ?? []).map((rule) => rule.rateLimit?.count);
  expect(left).toContain(0);
});

test('a long Retry-After while checking jobs offers Check now, which ends the wait at once', async ({
  page,
  freshApp,
}) => {
  test.setTimeout(90_000);
  const shell = new AppShellPage(page);
  await shell.open(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, 'demo-key');
  const form = new CreateImagePage(page);
  await expect(form.root).toBeVisible();
  // The first library refresh also lists jobs (GET /jobs): let it finish first, so the one limited
  // answer goes to the job checks this test is about, not to the refresh.
  await expect
    .poll(async () => await invokeInPage<{ lastSyncedAt: string | null; running: boolean }>(page, 'sync:status'), {
      timeout: 20_000,
    })
    .toMatchObject({ running: false, lastSyncedAt: expect.any(String) });
  // Four minutes: reasonable, so honoured, but too long to sit and wait for.
  const rateLimit = { count: 1, retryAfterSeconds: 240 };
  emulator.control.setFaults({
    rules: [
      { method: 'GET', path: '/jobs/:id', rateLimit },
      { method: 'GET', path: '/jobs', rateLimit },
    ],
  });
  await form.chooseModel('imagea');
  await form.prompt.fill('a kite over the dunes');
  await form.generate.click();
  const job = form.root.getByTestId('result-job').first();
  await expect(job).toBeVisible();
  await expect(shell.connection).toHaveText(/^Rate limited · checking jobs again in 4 min$/, { timeout: 20_000 });
  const checkNow = page.getByTestId('check-now');
  await expect(checkNow).toBeVisible();
  await screenshotBothSchemes(page, 'status-bar-check-now');
  emulator.control.advanceClock(60_000);
  await checkNow.click();
  await expect(shell.connection).toHaveText('Online', { timeout: 5_000 });
  await expect(checkNow).toHaveCount(0);
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 15_000 });
});
