// Training is a job like the others: while a model trains in the demo, Jobs lists it with its
// elapsed time against what the demo really takes and how often Atelier asks, the status bar counts
// it as running, and the model page says the same; when it is ready, the count goes back down.
import { AppShellPage } from './pages/app-shell-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { JobsPage } from './pages/jobs-page.ts';
import { ModelsPage } from './pages/models-page.ts';

const TWELVE = Array.from({ length: 12 }, (_, i) => {
  const n = i + 1;
  return { path: `photo-${String(n).padStart(2, '0')}.${n % 4 === 0 ? 'png' : 'jpg'}` };
});

test('a training in the demo shows in Jobs and in the status bar count, with the demo’s own times', async ({
  page,
  demoApp,
}) => {
  test.setTimeout(240_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await expect(shell.jobsInFlight).toHaveText('No jobs running');
  await shell.goTo('models');
  const models = new ModelsPage(page);
  await models.createModel('Studio light', 'person');
  const modelId = (await models.modelPage.getAttribute('data-model-id')) ?? '';
  expect(modelId).not.toBe('');
  await models.dropFiles(TWELVE);
  await expect(models.staged).toHaveCount(12);
  await models.uploadButton.click();
  await expect(models.uploadRows.and(page.locator('[data-state="succeeded"]'))).toHaveCount(12, { timeout: 60_000 });
  await models.train.click();
  await expect(models.status).toHaveText('training', { timeout: 15_000 });

  // The model page says what the demo does: about a minute, checked every 15 seconds.
  const panel = page.getByTestId('training-panel');
  await expect(panel.getByTestId('training-progress')).toContainText(/\d+ s of the usual 60–75 s/);
  await expect(panel.getByTestId('training-interval')).toHaveText(
    'Atelier asks the service every 15 seconds and tells you when it is ready.',
  );
  await expect(panel).not.toContainText('20–25');
  await expect(panel).not.toContainText('5 minutes');

  // The status bar counts it with the running jobs.
  await expect(shell.jobsInFlight).toHaveText('1 running');
  // …and its queue lists it.
  await shell.jobsInFlight.click();
  await expect(shell.queueDock.getByTestId('queue-training')).toContainText('Studio light');
  await expect(shell.queueDock).not.toContainText('No jobs yet');
  await shell.jobsInFlight.click();

  // Jobs lists it, by name, with its elapsed time and the expected range.
  const jobs = new JobsPage(page);
  await jobs.open();
  // The demo app is shared by this worker's specs: another spec's model may be training too.
  const row = jobs.root
    .getByTestId('jobs-training')
    .getByTestId('training-row')
    .and(page.locator(`[data-model-id="${modelId}"]`));
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Training “Studio light”');
  await expect(row.getByTestId('training-state')).toHaveText('training');
  await expect(row.getByTestId('training-elapsed')).toHaveText(/^\d+ s of the usual 60–75 s$/);
  await expect(row.getByTestId('training-interval')).toHaveText('Atelier asks the service every 15 seconds');
  // The elapsed time moves on its own.
  const first = await row.getByTestId('training-elapsed').textContent();
  await expect(row.getByTestId('training-elapsed')).not.toHaveText(first ?? '', { timeout: 5_000 });

  // Ready: the row says so, the count goes back down.
  await expect(row.getByTestId('training-state')).toHaveText('ready', { timeout: 180_000 });
  await expect(row.getByTestId('training-outcome')).toHaveText(/^Ready: trained in about \d+ s\.$/);
  await expect(shell.jobsInFlight).toHaveText('No jobs running');

  // "Open model" goes to its page.
  await row.getByTestId('training-open').click();
  await expect(models.modelPage).toHaveAttribute('data-model-id', modelId);
});
