// Cost before Generate: an estimate from the account's own recent jobs with the same model and
// settings, said with its basis, or "no history yet"; the real credits on the result once known.
import { AppShellPage } from './pages/app-shell-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { CreateImagePage } from './pages/create-image-page.ts';

test('the estimate before Generate comes from the account’s own jobs; the result shows what it cost', async ({
  page,
  demoApp,
}) => {
  test.setTimeout(90_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await shell.goTo('create-image');
  const form = new CreateImagePage(page);
  const estimate = form.root.getByTestId('cost-estimate');
  await form.chooseModel('imagea-2');
  await form.prompt.fill('a glass of water on a sill');
  await expect(estimate).toHaveText('Estimated cost: no history yet for this model and settings.');

  await form.generate.click();
  const job = form.root.getByTestId('result-job').first();
  await expect(job).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  // imagea-2 costs 2 credits an image on the demo's service.
  await expect(job.getByTestId('result-credits')).toHaveText('2 credits', { timeout: 15_000 });
  await expect(estimate).toHaveText('Estimated cost: about 2 credits, from your last job like this.');

  // Another prompt costs the same; another count has no history yet.
  await form.prompt.fill('a different prompt entirely');
  await expect(estimate).toContainText('about 2 credits');
  await form.pickSegment('numImages', '2');
  await expect(estimate).toHaveText('Estimated cost: no history yet for this model and settings.');
});
