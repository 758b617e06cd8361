// Page object for batches: Create's "Batch…" dialog (prompts or a CSV file, the live plan, refused
// rows, the budget override, the send button) and the Batches section of Jobs with its actions.
import type { Locator, Page } from '@playwright/test';

export class BatchDialogPage {
  readonly page: Page;
  readonly dialog: Locator;
  readonly prompts: Locator;
  readonly headline: Locator;
  readonly expansion: Locator;
  readonly refusedRows: Locator;
  readonly send: Locator;
  readonly blocked: Locator;
  readonly fileProblem: Locator;

  constructor(page: Page) {
    this.page = page;
    this.dialog = page.getByRole('dialog', { name: 'Batch' });
    this.prompts = this.dialog.getByRole('textbox', { name: 'Prompts, one a line' });
    this.headline = this.dialog.getByTestId('batch-plan-headline');
    this.expansion = this.dialog.getByTestId('batch-plan-expansion');
    this.refusedRows = this.dialog.getByTestId('batch-refused').getByRole('listitem');
    this.send = this.dialog.getByRole('button', { name: /^Send/ });
    this.blocked = this.dialog.getByTestId('batch-blocked');
    this.fileProblem = this.dialog.getByTestId('batch-file-problem');
  }

  /** Opens the dialog from the Create view `root` (Create image or Create video). */
  async open(root: Locator): Promise<void> {
    await root.getByRole('button', { name: 'Batch…' }).click();
    await this.dialog.waitFor();
  }

  async useCsv(): Promise<void> {
    await this.dialog.getByRole('radio', { name: 'CSV file' }).click();
  }

  /** Picks a file through "Choose a CSV file…", as the system's file chooser would give it. */
  async chooseFile(name: string, text: string | Buffer, mimeType = 'text/csv'): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.dialog.getByRole('button', { name: /^Choose (a CSV|another) file…$/ }).click();
    await (await chooser).setFiles({ name, mimeType, buffer: typeof text === 'string' ? Buffer.from(text) : text });
  }

  /** Drops a text file on the CSV zone: dragenter, dragover and drop carrying a DataTransfer. */
  async dropFile(name: string, text: string): Promise<void> {
    const zone = this.dialog.getByTestId('batch-file-drop');
    const transfer = await this.page.evaluateHandle(
      ([fileName, content]) => {
        const data = new DataTransfer();
        data.items.add(new File([content], fileName, { type: 'text/csv' }));
        return data;
      },
      [name, text] as const,
    );
    for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer: transfer });
    await transfer.dispose();
  }
}

export class BatchesSectionPage {
  readonly section: Locator;
  readonly rows: Locator;

  constructor(page: Page) {
    this.section = page.getByTestId('view-jobs').getByRole('region', { name: /^Batches/ });
    this.rows = this.section.getByTestId('batch-row');
  }

  row(name: string | RegExp): Locator {
    return this.rows.filter({ hasText: name });
  }
}
