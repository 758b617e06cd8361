// Page object for Settings: the key row, demo toggle, service address and the app preferences.
import type { Locator, Page } from '@playwright/test';

export class SettingsPage {
  readonly root: Locator;
  readonly keyRow: Locator;
  readonly keyStorage: Locator;
  readonly editKey: Locator;
  readonly removeKey: Locator;
  readonly apiKey: Locator;
  readonly saveKey: Locator;
  readonly confirmRemoveDialog: Locator;
  readonly confirmRemove: Locator;
  readonly demoToggle: Locator;
  readonly baseUrl: Locator;
  readonly theme: Locator;

  constructor(page: Page) {
    this.root = page.getByTestId('view-settings');
    this.keyRow = page.getByTestId('settings-api-key');
    this.keyStorage = page.getByTestId('key-storage');
    this.editKey = page.getByTestId('edit-key');
    this.removeKey = page.getByTestId('remove-key');
    this.apiKey = this.keyRow.getByLabel('API key', { exact: true });
    this.saveKey = this.keyRow.getByTestId('save-key');
    this.confirmRemoveDialog = page.getByTestId('confirm-remove-key');
    this.confirmRemove = page.getByTestId('confirm-remove');
    this.demoToggle = page.getByTestId('toggle-demo').getByRole('switch');
    this.baseUrl = page.getByTestId('setting-baseUrl').getByRole('textbox');
    this.theme = page.getByTestId('setting-theme');
  }

  async setBaseUrl(url: string): Promise<void> {
    await this.baseUrl.fill(url);
    await this.baseUrl.press('Enter');
  }

  async setKey(key: string): Promise<void> {
    await this.editKey.click();
    await this.apiKey.fill(key);
    await this.saveKey.click();
  }
}
