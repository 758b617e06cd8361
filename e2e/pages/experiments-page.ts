// Page object for the Experiments view: the list of experiments and the open experiment's matrix
// (a table: column headers are axis 1's values, row headers axis 0's), its cells, outputs and bar.
import type { Locator, Page } from '@playwright/test';

export class ExperimentsPage {
  readonly page: Page;
  readonly root: Locator;
  readonly list: Locator;
  readonly rows: Locator;
  readonly matrix: Locator;
  readonly cells: Locator;
  readonly outputs: Locator;
  readonly placeholders: Locator;
  readonly toolbar: Locator;
  readonly progress: Locator;
  readonly paused: Locator;
  readonly compareSelected: Locator;
  readonly back: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId('view-experiments');
    this.list = this.root.getByRole('list', { name: 'Experiments' });
    this.rows = this.root.getByTestId('experiment-row');
    this.matrix = this.root.getByRole('table');
    this.cells = this.matrix.getByTestId('experiment-cell');
    this.outputs = this.matrix.getByTestId('cell-output');
    this.placeholders = this.matrix.getByTestId('cell-placeholder');
    this.toolbar = this.root.getByTestId('experiment-toolbar');
    this.progress = this.toolbar.getByTestId('experiment-progress');
    this.paused = this.root.getByTestId('experiment-paused');
    this.compareSelected = this.toolbar.getByRole('button', { name: /^Compare selected/ });
    this.back = this.toolbar.getByRole('button', { name: 'Experiments' });
  }

  /** The list's entry of an experiment, by its name. */
  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('button', { name, exact: true }) });
  }

  async openExperiment(name: string): Promise<void> {
    await this.row(name).getByRole('button', { name, exact: true }).click();
  }

  /** The cell at a row's and a column's header (their labels, as shown). */
  cell(rowLabel: string, columnLabel: string): Locator {
    return this.page.locator(
      // The matrix's cells carry their indexes; the headers say which index has which label.
      `[data-testid="experiment-cell"][data-row="${this.#index('row', rowLabel)}"][data-column="${this.#index('column', columnLabel)}"]`,
    );
  }

  #labels: { row: string[]; column: string[] } = { row: [], column: [] };

  /** Reads the headers' labels (call once the matrix shows, before cell()). */
  async readHeaders(): Promise<{ rows: string[]; columns: string[] }> {
    const rows = (await this.matrix.getByRole('rowheader').allTextContents()).map((t) => t.trim());
    const columns = (await this.matrix.getByRole('columnheader').allTextContents()).map((t) => t.trim());
    this.#labels = { row: rows, column: columns };
    return { rows, columns };
  }

  #index(which: 'row' | 'column', label: string): number {
    const at = this.#labels[which].indexOf(label);
    if (at < 0) throw new Error(`no ${which} header "${label}" (read: ${this.#labels[which].join(', ')})`);
    return at;
  }
}
