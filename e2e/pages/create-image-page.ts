// Page object for Create image.
import type { Page } from '@playwright/test';
import { CreateFormPage } from './create-form.ts';

export class CreateImagePage extends CreateFormPage {
  constructor(page: Page) {
    super(page, 'view-create-image');
  }

  readonly options = this.root.getByTestId('section-options');
  readonly trainedSection = this.root.getByTestId('section-trained');

  async addReferenceUrls(urls: string[]): Promise<void> {
    await this.addToList('referenceImageURLs', urls);
  }
}
