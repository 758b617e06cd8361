// Page object for Create image, with a trained model's input-image picker (thumbnails, drop, file picker).
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { CreateFormPage } from './create-form.ts';
import { dropFiles, PHOTOS_DIR, type DropFile } from './drop-files.ts';

export class CreateImagePage extends CreateFormPage {
  constructor(page: Page) {
    super(page, 'view-create-image');
  }

  readonly options = this.root.getByTestId('section-options');
  readonly trainedSection = this.root.getByTestId('section-trained');

  async addReferenceUrls(urls: string[]): Promise<void> {
    await this.addToList('referenceImageURLs', urls);
  }

  /** The trained model's reference images offered as inputImageId, as thumbnails (radios). */
  inputImages(): Locator {
    return this.field('inputImageId').getByTestId('input-image');
  }

  inputImage(imageId: string): Locator {
    return this.field('inputImageId').getByRole('radio', { name: `Reference image ${imageId}`, exact: true });
  }

  inputImageRefusals(): Locator {
    return this.field('inputImageId').getByTestId('input-image-refused');
  }

  inputImageUploads(): Locator {
    return this.field('inputImageId').getByTestId('input-image-upload');
  }

  /** Drops fixture files on the picker's upload cell: dragenter, dragover and drop carrying a DataTransfer. */
  async dropInputImages(files: DropFile[]): Promise<void> {
    await dropFiles(this.page, this.root.getByTestId('input-image-drop'), files);
  }

  /** Opens the picker's file chooser with the upload cell (keyboard: focus, Enter) and picks fixture files. */
  async pickInputImages(paths: string[]): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.root.getByTestId('input-image-drop').focus();
    await this.page.keyboard.press('Enter');
    await (await chooser).setFiles(paths.map((p) => join(PHOTOS_DIR, p)));
  }
}
