// Page object for Create's "Try across models" dialog, by roles and accessible names: the axes (what each
// varies, its values ticked), the preview (summary line, the grid of cells), the cap's override, Send.
import type { Locator, Page } from '@playwright/test';
import type { CreateFormPage } from './create-form.ts';

export class ExperimentDialogPage {
  readonly page: Page;
  readonly root: Locator;
  readonly name: Locator;
  /** "6 jobs · about 8 credits · about 1 min". */
  readonly summary: Locator;
  /** The grid of cells: rows × columns by name, each cell its estimate. */
  readonly grid: Locator;
  readonly cells: Locator;
  readonly notes: Locator;
  readonly refused: Locator;
  readonly overBudget: Locator;
  readonly sendAnyway: Locator;
  /** The send button, whose name says what it sends and costs: "Send 6 jobs (about 8 credits)". */
  readonly send: Locator;
  /** Why Send cannot be pressed now. */
  readonly sendBlocked: Locator;
  readonly addSecondAxis: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByRole('dialog', { name: 'Try across models' });
    this.name = this.root.getByRole('textbox', { name: 'Name' });
    this.summary = this.root.getByTestId('experiment-summary');
    this.grid = this.root.getByRole('table');
    this.cells = this.grid.getByRole('cell');
    this.notes = this.root.getByTestId('experiment-notes');
    this.refused = this.root.getByTestId('experiment-refused');
    this.overBudget = this.root.getByTestId('experiment-over-budget');
    this.sendAnyway = this.root.getByRole('checkbox', { name: 'Send anyway (over my cap)' });
    this.send = this.root.getByRole('button', { name: /^Send/ });
    this.sendBlocked = this.root.getByTestId('experiment-send-blocked');
    this.addSecondAxis = this.root.getByRole('button', { name: 'Add a second axis' });
  }

  /** The Create form's button that opens the dialog. */
  static opener(form: CreateFormPage): Locator {
    return form.root.getByRole('button', { name: 'Try across models…' });
  }

  async openFrom(form: CreateFormPage): Promise<void> {
    await ExperimentDialogPage.opener(form).click();
  }

  /** The first axis ("Vary one setting", or "Rows" once there are two) or the second ("Columns"). */
  axis(n: 1 | 2): Locator {
    return this.root.getByRole('group', { name: n === 1 ? /^(Vary one setting|Rows)$/ : /^Columns$/ });
  }

  async vary(n: 1 | 2, what: string): Promise<void> {
    await this.axis(n).getByRole('combobox', { name: 'Vary' }).selectOption({ label: what });
  }

  value(n: 1 | 2, label: string): Locator {
    return this.axis(n).getByRole('checkbox', { name: label, exact: true });
  }

  async tick(n: 1 | 2, labels: string[]): Promise<void> {
    for (const label of labels) await this.value(n, label).check();
  }

  /** A typed axis's field: "Seeds", "Prompt variants". */
  typed(n: 1 | 2, label: string): Locator {
    return this.axis(n).getByRole('textbox', { name: label });
  }

  /** The cells of the row named `row`. */
  rowCells(row: string): Locator {
    return this.grid
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: row, exact: true }) })
      .getByRole('cell');
  }
}
