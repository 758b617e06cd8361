// Page object for Jobs: local jobs by section, and the service's history with its date range.
import type { Locator, Page } from '@playwright/test';

export class JobsPage {
  readonly page: Page;
  readonly root: Locator;
  readonly rows: Locator;
  readonly historyFrom: Locator;
  readonly historyTo: Locator;
  readonly historyShow: Locator;
  readonly historyProblem: Locator;
  readonly historyRows: Locator;
  readonly historySummary: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId('view-jobs');
    this.rows = this.root.getByTestId('job-row');
    this.historyFrom = page.getByTestId('history-from');
    this.historyTo = page.getByTestId('history-to');
    this.historyShow = page.getByTestId('history-show');
    this.historyProblem = page.getByTestId('history-range-problem');
    this.historyRows = page.getByTestId('history-row');
    this.historySummary = page.getByTestId('history-summary');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-jobs').click();
    await this.root.waitFor();
  }

  section(name: 'live' | 'attention' | 'recent'): Locator {
    return this.root.getByTestId(`jobs-${name}`);
  }

  async showHistory(): Promise<void> {
    await this.root.getByTestId('jobs-tabs').getByRole('radio', { name: 'Service history' }).click();
  }
}
