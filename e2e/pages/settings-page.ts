// Page object for Settings: the key row, demo toggle, service address, the library folder (and its move) and the app preferences.
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
  readonly serviceAddress: Locator;
  readonly theme: Locator;
  readonly libraryFolder: Locator;
  readonly libraryFolderPath: Locator;
  readonly moveLibrary: Locator;
  readonly moveDialog: Locator;
  readonly moveFolder: Locator;
  readonly moveNext: Locator;
  readonly moveSummary: Locator;
  readonly moveConfirm: Locator;
  readonly moveRefusal: Locator;
  readonly moveStatus: Locator;
  readonly movePhase: Locator;
  readonly moveCounts: Locator;
  readonly moveProgress: Locator;
  readonly moveAbort: Locator;
  readonly moveOutcome: Locator;
  readonly repointToggle: Locator;
  readonly repointField: Locator;

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
    this.baseUrl = this.keyRow.getByLabel('Service address', { exact: true });
    this.serviceAddress = page.getByTestId('service-address');
    this.theme = page.getByTestId('setting-theme');
    this.libraryFolder = page.getByTestId('settings-library-folder');
    this.libraryFolderPath = page.getByTestId('library-folder-path');
    this.moveLibrary = page.getByTestId('move-library');
    this.moveDialog = page.getByTestId('move-library-dialog');
    this.moveFolder = this.moveDialog.getByRole('textbox', { name: 'New library folder' });
    this.moveNext = page.getByTestId('move-library-next');
    this.moveSummary = page.getByTestId('move-library-summary');
    this.moveConfirm = page.getByTestId('move-library-confirm');
    this.moveRefusal = page.getByTestId('move-library-refusal');
    this.moveStatus = page.getByTestId('library-move-status');
    this.movePhase = page.getByTestId('library-move-phase');
    this.moveCounts = page.getByTestId('library-move-counts');
    this.moveProgress = this.moveStatus.getByRole('progressbar', { name: 'Moving the library' });
    this.moveAbort = page.getByTestId('library-move-abort');
    this.moveOutcome = page.getByTestId('library-move-outcome');
    this.repointToggle = page.getByTestId('toggle-repoint-library');
    this.repointField = page.getByTestId('setting-libraryDir').getByRole('textbox');
  }

  /** Opens "Move…", types the folder and continues to the confirmation. */
  async chooseMoveTarget(folder: string): Promise<void> {
    await this.moveLibrary.click();
    await this.moveFolder.fill(folder);
    await this.moveNext.click();
  }

  async setKey(key: string): Promise<void> {
    await this.editKey.click();
    await this.apiKey.fill(key);
    await this.saveKey.click();
  }
}
