// Jobs: the live queue with elapsed time, failed jobs with the service's error and a one-click resubmit,
// recent jobs with their outputs, and the service's history whose picker refuses more than seven days.
import { expect, test, type Page } from './fixtures/page-errors.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { generateAndWait, invokeInPage, recordChannelCalls } from './pages/contract-client.ts';
import { JobsPage } from './pages/jobs-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';

let app: RunningApp;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  app = await startBrowserModeApp(['--demo']);
  const page = await browser.newPage();
  await page.goto(app.url);
  // More than one page of the service's history (50 jobs a page).
  const filler = Array.from({ length: 48 }, (_, i) => ({
    kind: 'image' as const,
    body: { modelID: 'imagea', prompt: `a pebble study number ${i + 1}` },
  }));
  await generateAndWait(
    page,
    [
      ...filler,
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a red kite against a blue sky', numImages: 2 } },
      { kind: 'image', body: { modelID: 'imagea', prompt: 'a broken vase [fail]' } },
    ],
    90_000,
  );
  await page.close();
});

test.afterAll(async () => {
  await app?.stop();
});

/** Counts the jobs:history calls the page sends over the bridge. */
function countHistoryCalls(page: Page): () => number {
  const calls = recordChannelCalls(page);
  return () => calls.filter((channel) => channel === 'jobs:history').length;
}

const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

test('failed jobs show the service error and resubmit in one click; live jobs count their time', async ({ page }) => {
  await page.goto(app.url);
  const jobs = new JobsPage(page);
  await jobs.open();
  const failed = jobs.section('attention').getByTestId('job-row').filter({ hasText: 'a broken vase' });
  await expect(failed).toHaveCount(1);
  await expect(failed.getByTestId('job-error')).not.toBeEmpty();
  const done = jobs.section('recent').getByTestId('job-row').filter({ hasText: 'a red kite' });
  await expect(done.getByTestId('job-output')).toHaveCount(2);

  await invokeInPage(page, 'jobs:submit', {
    kind: 'video',
    body: { modelID: 'videoa-3.1', prompt: 'a slow pan over a city' },
  });
  const live = jobs.section('live').getByTestId('job-row').filter({ hasText: 'a slow pan' });
  await expect(live.getByTestId('job-elapsed')).toContainText('so far');
  await screenshotBothSchemes(page, 'jobs');

  await failed.getByTestId('job-resubmit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Sent again as a new job' })).toBeVisible();
  await expect(jobs.rows.filter({ hasText: 'Sent again as job #' })).toHaveCount(1);
  await expect(jobs.rows.filter({ hasText: 'a broken vase' })).toHaveCount(2);

  // An output opens in the asset view.
  await done.getByTestId('job-output').first().click();
  await expect(page.getByTestId('asset-view')).toContainText('a red kite');
  await page.keyboard.press('Escape');
});

test('the history picker refuses a range over seven days before any call, then pages by token with credits', async ({
  page,
}) => {
  const historyCalls = countHistoryCalls(page);
  await page.goto(app.url);
  const jobs = new JobsPage(page);
  await jobs.open();
  await jobs.showHistory();

  await jobs.historyFrom.fill(day(-10));
  await jobs.historyTo.fill(day(0));
  await expect(jobs.historyProblem).toContainText('at most 7 days');
  await expect(jobs.historyProblem).toContainText('11 days');
  await expect(jobs.historyShow).toBeDisabled();
  await jobs.historyTo.press('Enter');
  await screenshotBothSchemes(page, 'jobs-history-refused');
  expect(historyCalls()).toBe(0);

  await jobs.historyFrom.fill(day(-6));
  await expect(jobs.historyProblem).toHaveCount(0);
  await jobs.historyShow.click();
  // 50 image jobs, one resubmitted, and a video job, all today: two pages.
  await expect(jobs.historyRows).toHaveCount(50);
  await expect(jobs.historySummary).toContainText(/^50\+ jobs · \d+ credits/);
  expect(historyCalls()).toBe(1);
  await screenshotBothSchemes(page, 'jobs-history');
  await page.getByTestId('history-more').click();
  await expect(jobs.historyRows).toHaveCount(52);
  await expect(jobs.historySummary).toContainText(/^52 jobs · \d+ credits/);
  await expect(page.getByTestId('history-more')).toHaveCount(0);
  await expect(jobs.historyRows.filter({ hasText: 'failed' })).toHaveCount(2);
  expect(historyCalls()).toBe(2);
});
