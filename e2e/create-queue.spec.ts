// A queue that stays out of the way: counts by state in the status bar, the list only on demand (not
// reopened by a submit), finished rows folding away, a submission cancelled before it is sent, and
// room for the form at 1024×640.
import { AppShellPage } from './pages/app-shell-page.ts';
import { expect, imageGenerations as generations, serviceTest as test } from './fixtures/service-account.ts';
import { CreateImagePage } from './pages/create-image-page.ts';

test.use({ emulatorOptions: { timeScale: 20 } });

test('a submission is cancelled before it is sent; the list opens only on demand; finished rows fold away', async ({
  page,
  signIn,
  emulator,
}) => {
  const shell = new AppShellPage(page);
  await signIn();
  const form = new CreateImagePage(page);
  await form.prompt.fill('a kite, cancelled');
  emulator.control.resetStats();

  await form.generate.click();
  const pending = page.getByTestId('pending-send');
  await expect(pending).toContainText('a kite, cancelled');
  await expect(shell.jobsInFlight).toHaveText('1 sending');
  await pending.getByTestId('cancel-send').click();
  await expect(pending).toHaveCount(0);
  await page.waitForTimeout(2_500);
  expect(generations(emulator), 'a cancelled submission was sent').toBe(0);
  await expect(form.root.getByTestId('result-job')).toHaveCount(0);
  await expect(shell.jobsInFlight).toHaveText('No jobs running');

  // Sent for real: counted by state, the list stays closed until asked for.
  await form.prompt.fill('a kite, sent');
  await form.generate.click();
  await expect.poll(() => generations(emulator)).toBe(1);
  await expect(shell.jobsInFlight).toContainText(/queued|running/);
  await expect(shell.queueDock).toHaveCount(0);
  await shell.jobsInFlight.click();
  await expect(shell.queueDock.getByTestId('queue-item')).toHaveCount(1);
  await form.prompt.fill('a kite, sent again');
  await form.generate.click();
  await expect(shell.queueDock.getByTestId('queue-item')).toHaveCount(2);
  await shell.jobsInFlight.click();
  await expect(shell.queueDock).toHaveCount(0);
  await form.generate.click();
  await expect.poll(() => generations(emulator)).toBe(3);
  await expect(shell.queueDock).toHaveCount(0);

  // Done, then folded away by itself.
  await expect(shell.jobsInFlight).toContainText('done', { timeout: 45_000 });
  await expect(shell.jobsInFlight).toHaveText('No jobs running', { timeout: 45_000 });
});

test('at 1024×640 the form keeps its room, with the queue closed and while a submission waits', async ({
  page,
  signIn,
}) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  await signIn();
  const form = new CreateImagePage(page);
  const scroll = form.root.locator('form .scroll');
  const room = () => scroll.evaluate((el) => el.clientHeight);
  expect(await room()).toBeGreaterThan(400);
  await form.prompt.fill('a lighthouse');
  await form.generate.click();
  await expect(page.getByTestId('pending-send')).toBeVisible();
  expect(await room()).toBeGreaterThan(370);
});
