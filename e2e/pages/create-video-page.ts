// Page object for Create video.
import type { Locator, Page } from '@playwright/test';
import { CreateFormPage } from './create-form.ts';

export class CreateVideoPage extends CreateFormPage {
  constructor(page: Page) {
    super(page, 'view-create-video');
  }

  readonly rules = this.root.getByTestId('model-rules');
  readonly references = this.root.getByTestId('section-references');

  /** A drop target of the references: 'first_frame', 'last_frame', 'reference_image' or 'reference_video'. */
  dropTarget(target: string): Locator {
    return this.references.getByTestId(`drop-${target}`);
  }

  /** After pressing a library item: the button adding it with a role. */
  addAs(target: string): Locator {
    return this.references.getByTestId('reference-place').getByTestId(`add-as-${target}`);
  }

  /** Adds a reference image and gives it a role ('first_frame', 'last_frame', 'reference_image'). */
  async addReferenceImage(url: string, role: string): Promise<void> {
    await this.addToList('referenceImages', [url]);
    await this.listItems('referenceImages').last().getByTestId('reference-role').selectOption(role);
  }
}
