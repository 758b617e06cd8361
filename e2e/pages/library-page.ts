// Page object for the Library: search, filters, the windowed grid, selection and bulk actions.
import type { Locator, Page } from '@playwright/test';

export class LibraryPage {
  readonly page: Page;
  readonly root: Locator;
  readonly search: Locator;
  readonly grid: Locator;
  readonly tiles: Locator;
  readonly total: Locator;
  readonly end: Locator;
  readonly empty: Locator;
  readonly selectionBar: Locator;
  readonly selectionCount: Locator;
  readonly offlineBanner: Locator;
  readonly exportDialog: Locator;
  readonly exportFolder: Locator;
  readonly sidebar: Locator;
  readonly collections: Locator;
  readonly menu: Locator;
  readonly nameDialog: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId('view-library');
    this.search = page.getByTestId('library-search');
    this.grid = page.getByTestId('asset-grid');
    this.tiles = this.grid.getByTestId('asset-tile');
    this.total = page.getByTestId('library-total');
    this.end = page.getByTestId('library-end');
    this.empty = page.getByTestId('library-empty');
    this.selectionBar = page.getByTestId('selection-bar');
    this.selectionCount = page.getByTestId('selection-count');
    this.offlineBanner = page.getByTestId('offline-banner');
    this.exportDialog = page.getByTestId('export-dialog');
    this.exportFolder = this.exportDialog.getByRole('textbox', { name: 'Export to folder' });
    this.sidebar = page.getByTestId('library-sidebar');
    this.collections = this.sidebar.getByTestId('collection');
    this.menu = page.getByRole('menu');
    this.nameDialog = page.getByTestId('collection-name-dialog');
  }

  place(name: 'results' | 'favorites' | 'liked' | 'uploads'): Locator {
    return this.sidebar.getByTestId(`place-${name}`);
  }

  collection(name: string): Locator {
    return this.collections.filter({
      has: this.page.getByTestId('collection-name-label').getByText(name, { exact: true }),
    });
  }

  menuItem(name: string | RegExp): Locator {
    return this.menu.getByRole('menuitem', { name }).or(this.menu.getByRole('menuitemcheckbox', { name }));
  }

  /** Types a name into the collection name prompt and saves it. */
  async giveName(name: string): Promise<void> {
    await this.nameDialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await this.nameDialog.getByTestId('collection-name-save').click();
    await this.nameDialog.waitFor({ state: 'detached' });
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-library').click();
    await this.root.waitFor();
  }

  tile(assetId: string): Locator {
    return this.grid.locator(`[data-testid="asset-tile"][data-asset-id="${assetId}"]`);
  }

  async filterKind(label: RegExp): Promise<void> {
    await this.page.getByTestId('filter-kind').getByRole('radio', { name: label }).click();
  }

  async bulk(action: 'download' | 'export' | 'remove-local' | 'delete-remote'): Promise<void> {
    await this.page.getByTestId(`bulk-${action}`).click();
  }

  confirmDialog(kind: 'remove-local' | 'delete-remote'): Locator {
    return this.page.getByTestId(`confirm-${kind}`);
  }

  /** How many of the list's items the Library holds in memory now. */
  async heldItems(): Promise<number> {
    return Number(await this.page.locator('[data-held]').getAttribute('data-held'));
  }

  /** Scrolls the grid to its end, page by page, until the whole list is loaded. */
  async scrollToEnd(timeoutMs = 120_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let steps = 0;
    while (Date.now() < deadline) {
      const complete = await this.grid.getAttribute('data-complete');
      await this.grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      steps += 1;
      if (complete === 'true' && (await this.end.isVisible())) return steps;
      await this.page.waitForTimeout(50);
    }
    throw new Error('the grid did not reach its end in time');
  }
}
