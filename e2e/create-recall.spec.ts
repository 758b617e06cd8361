// Prompt recall and again-from-a-result: Up in an empty prompt brings back the panel's recent prompts;
// every result offers "Generate again" (the same request) and, where the model takes a seed, "Vary seed".
import { AppShellPage } from './pages/app-shell-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';
import { invokeInPage } from './pages/contract-client.ts';
import { CreateImagePage } from './pages/create-image-page.ts';

interface JobLike {
  localId: number;
  prompt: string | null;
  request: Record<string, unknown>;
}

test('Up recalls recent prompts; Generate again and Vary seed send from a result', async ({ page, demoApp }) => {
  test.setTimeout(120_000);
  const shell = new AppShellPage(page);
  await shell.open(demoApp.url);
  await shell.goTo('create-image');
  const form = new CreateImagePage(page);
  // The service's free and general models (an empty demo has no trained model of its own yet).
  const yours = form.model.locator('optgroup[label="Provided by the service"] option:not([disabled])');
  await expect(yours.first()).toBeAttached({ timeout: 20_000 });
  await form.chooseModel((await yours.first().getAttribute('value')) ?? '');

  for (const prompt of ['a first prompt', 'a second prompt']) {
    await form.prompt.fill(prompt);
    await form.generate.click();
    await expect(form.root.getByTestId('result-job').filter({ hasText: prompt })).toHaveCount(1);
  }
  await form.prompt.fill('');
  await form.prompt.press('ArrowUp');
  await expect(form.prompt).toHaveValue('a second prompt');
  await form.prompt.press('ArrowUp');
  await expect(form.prompt).toHaveValue('a first prompt');
  await form.prompt.press('ArrowDown');
  await expect(form.prompt).toHaveValue('a second prompt');
  await form.prompt.press('ArrowDown');
  await expect(form.prompt).toHaveValue('');

  const second = form.root.getByTestId('result-job').filter({ hasText: 'a second prompt' });
  await expect(second).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
  const before = (await invokeInPage<JobLike[]>(page, 'jobs:list', { limit: 50 })).filter(
    (j) => j.prompt === 'a second prompt',
  );
  expect(before).toHaveLength(1);
  const firstSeed = before[0]?.request['seed'];

  await second.getByTestId('generate-again').click();
  await expect(form.root.getByTestId('result-job').filter({ hasText: 'a second prompt' })).toHaveCount(2);
  await second.first().getByTestId('vary-seed').click();
  await expect(form.root.getByTestId('result-job').filter({ hasText: 'a second prompt' })).toHaveCount(3);
  await expect
    .poll(async () =>
      (await invokeInPage<JobLike[]>(page, 'jobs:list', { limit: 50 }))
        .filter((j) => j.prompt === 'a second prompt')
        .map((j) => j.request['seed']),
    )
    .toHaveLength(3);
  const seeds = (await invokeInPage<JobLike[]>(page, 'jobs:list', { limit: 50 }))
    .filter((j) => j.prompt === 'a second prompt')
    .map((j) => j.request['seed']);
  // Again: the same seed; varied: another one.
  expect(seeds.filter((s) => s === firstSeed)).toHaveLength(2);
  expect(seeds.filter((s) => s !== firstSeed)).toHaveLength(1);
});
