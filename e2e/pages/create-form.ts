// Shared helpers of the Create image and Create video page objects: fields by test id, lists, Generate.
import type { Locator, Page } from '@playwright/test';

export class CreateFormPage {
  readonly page: Page;
  readonly root: Locator;
  readonly model: Locator;
  readonly prompt: Locator;
  readonly generate: Locator;
  readonly generateBlocked: Locator;
  /** "From the library": the newest items, each draggable or pressed to add. */
  readonly libraryPicks: Locator;
  /** What the last library drop or press did: added, or refused with the reason. */
  readonly referenceMessage: Locator;

  constructor(page: Page, viewTestId: string) {
    this.page = page;
    this.root = page.getByTestId(viewTestId);
    this.model = this.root.getByLabel('Model', { exact: true });
    this.prompt = this.root.getByLabel('Prompt', { exact: true });
    this.generate = this.root.getByTestId('generate');
    this.generateBlocked = this.root.getByTestId('generate-blocked');
    this.libraryPicks = this.root.getByTestId('library-strip').getByTestId('library-pick');
    this.referenceMessage = this.root.getByTestId('reference-message');
  }

  /** The wrapper of one field (label, control, messages), by its request field name. */
  field(name: string): Locator {
    return this.root.getByTestId(`field-${name}`);
  }

  fieldError(name: string): Locator {
    return this.field(name).locator('[data-role="field-error"]');
  }

  fieldNotice(name: string): Locator {
    return this.field(name).locator('[data-role="field-notice"]');
  }

  async chooseModel(id: string): Promise<void> {
    await this.model.selectOption(id);
  }

  /** Picks a value of a segmented control by its visible label. */
  async pickSegment(name: string, label: string): Promise<void> {
    await this.field(name).getByRole('radio', { name: label, exact: true }).click();
  }

  /** Adds items to a URL/ID list field by typing each and pressing Enter. */
  async addToList(name: string, values: string[]): Promise<void> {
    const input = this.field(name).getByRole('textbox');
    for (const value of values) {
      await input.fill(value);
      await input.press('Enter');
    }
  }

  listItems(name: string): Locator {
    return this.field(name).getByTestId('url-item');
  }

  /** The "2 of 3" counter at the label's right. */
  listCounter(name: string): Locator {
    return this.field(name).locator('.aside');
  }
}
