// Page object for the first-run welcome: enter an API key or try the demo.
import type { Locator, Page } from '@playwright/test';

export class FirstRunPage {
  readonly root: Locator;
  readonly chooseKey: Locator;
  readonly chooseDemo: Locator;
  readonly baseUrl: Locator;
  readonly apiKey: Locator;
  readonly submitKey: Locator;

  constructor(page: Page) {
    this.root = page.getByTestId('view-first-run');
    this.chooseKey = page.getByTestId('choose-key');
    this.chooseDemo = page.getByTestId('choose-demo');
    this.baseUrl = this.root.getByLabel('Service address', { exact: true });
    this.apiKey = this.root.getByLabel('API key', { exact: true });
    this.submitKey = this.root.getByTestId('save-key');
  }

  /** The error shown on one field of the connection form ('baseUrl', 'apiKey'). */
  fieldError(name: 'baseUrl' | 'apiKey'): Locator {
    return this.root.getByTestId(`field-${name}`).locator('[data-role="field-error"]');
  }

  async enterKey(baseUrl: string, key: string): Promise<void> {
    await this.chooseKey.click();
    await this.baseUrl.fill(baseUrl);
    await this.apiKey.fill(key);
    await this.submitKey.click();
  }
}
