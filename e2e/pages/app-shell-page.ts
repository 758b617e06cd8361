// Page object for the app frame: status bar, navigation.
import type { Locator, Page } from '@playwright/test';

export class AppShellPage {
  readonly page: Page;
  readonly version: Locator;

  constructor(page: Page) {
    this.page = page;
    this.version = page.getByTestId('app-version');
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
  }
}
