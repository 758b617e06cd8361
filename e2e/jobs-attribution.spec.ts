// Attribution that is never wrong (issue 28): two requests whose answers were cut off in the same
// moment cannot be told apart from the service's job list, so neither gets a job; both say "may have
// been sent", the two jobs are shown as found on the service, and the user's confirmed "This is it"
// ties one to a request. Slow by nature: a request is decided only once its window (3 min) has closed.
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { freshTest as test, expect } from './pages/app-fixtures.ts';
import { invokeInPage } from './pages/contract-client.ts';
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

test('two lost answers in one moment: both requests say "may have been sent" and "This is it" ties the job the user confirms', async ({
  page,
  freshApp,
}) => {
  test.setTimeout(330_000);
  const shell = new AppShellPage(page);
  await shell.open(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, 'demo-key');
  await expect(new CreateImagePage(page).root).toBeVisible();

  emulator.control.setFaults({
    rules: [{ method: 'POST', path: '/images/generation', truncateBody: { count: 2 } }],
  });
  for (const prompt of ['a koi pond from above', 'a red bicycle by a wall'])
    await invokeInPage(page, 'jobs:submit', { kind: 'image', body: { modelID: 'imagea', prompt } });

  const jobs = new JobsPage(page);
  await jobs.open();
  const koi = jobs.section('attention').getByTestId('job-row').filter({ hasText: 'a koi pond from above' });
  const bicycle = jobs.section('attention').getByTestId('job-row').filter({ hasText: 'a red bicycle by a wall' });
  await expect(koi.getByTestId('job-maybe-sent')).toContainText('May have been sent', { timeout: 240_000 });
  // Its window closes a moment after the first's: it may be decided on the next pass (a few seconds on).
  await expect(bicycle.getByTestId('job-maybe-sent')).toContainText('May have been sent', { timeout: 30_000 });
  const found = jobs.root.getByTestId('jobs-unattributed').getByTestId('job-row');
  await expect(found).toHaveCount(2);
  await expect(found.first()).toContainText('Found on the service — could not tell which of your requests');
  await expect(koi.getByRole('button', { name: /This is it/ })).toHaveCount(2);

  // Cancelling the confirmation changes nothing; confirming ties that job to this request.
  await koi
    .getByRole('button', { name: /This is it/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Is this job this request’s?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(found).toHaveCount(2);
  await koi
    .getByRole('button', { name: /This is it/ })
    .first()
    .click();
  await dialog.getByRole('button', { name: 'Yes, this is it' }).click();
  await expect(found).toHaveCount(1);
  const tied = jobs.rows
    .filter({ hasText: 'a koi pond from above' })
    .filter({ hasNot: page.getByTestId('job-unattributed') });
  await expect(found).not.toContainText('a koi pond from above'); // no longer a possible sender of the other job
  await expect(tied).not.toHaveAttribute('data-state', 'unknown');
  await expect(tied.getByTestId('job-maybe-sent')).toHaveCount(0);
  // The other request can still only be the remaining job's.
  await expect(bicycle.getByRole('button', { name: /This is it/ })).toHaveCount(1);
});
