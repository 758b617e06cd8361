// Page object for Create video.
import type { Page } from '@playwright/test';
import { CreateFormPage } from './create-form.ts';

export class CreateVideoPage extends CreateFormPage {
  constructor(page: Page) {
    super(page, 'view-create-video');
  }

  readonly rules = this.root.getByTestId('model-rules');
  readonly references = this.root.getByTestId('section-references');

  /** Adds a reference image and gives it a role ('first_frame', 'last_frame', 'reference_image'). */
  async addReferenceImage(url: string, role: string): Promise<void> {
    await this.addToList('referenceImages', [url]);
    await this.listItems('referenceImages').last().getByTestId('reference-role').selectOption(role);
  }
}
