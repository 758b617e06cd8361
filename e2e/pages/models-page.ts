// Page object for Models: the list, the create and delete dialogs, and a model's page (photos, uploads,
// training, images). Files are dropped through a DataTransfer built in the page or picked with the inputs.
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { dropFiles, PHOTOS_DIR, type DropFile } from './drop-files.ts';

export { PHOTOS_DIR, type DropFile } from './drop-files.ts';

export class ModelsPage {
  readonly page: Page;
  readonly root: Locator;
  readonly newModel: Locator;
  readonly list: Locator;
  readonly rows: Locator;
  readonly createDialog: Locator;
  readonly deleteDialog: Locator;
  readonly modelPage: Locator;
  readonly name: Locator;
  readonly labelInput: Locator;
  readonly status: Locator;
  readonly dropZone: Locator;
  readonly photoInput: Locator;
  readonly folderInput: Locator;
  readonly staged: Locator;
  readonly stagedSummary: Locator;
  readonly refused: Locator;
  readonly uploadButton: Locator;
  readonly uploadRows: Locator;
  readonly trainingPanel: Locator;
  readonly train: Locator;
  readonly trainBlocked: Locator;
  readonly trainingCount: Locator;
  readonly trainingProgress: Locator;
  readonly checkNow: Locator;
  readonly trainingRefusal: Locator;
  readonly trainingRetry: Locator;
  readonly images: Locator;
  readonly imageTiles: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId('view-models');
    this.newModel = this.root.getByTestId('new-model');
    this.list = this.root.getByTestId('model-list');
    this.rows = this.list.getByTestId('model-row');
    this.createDialog = page.getByTestId('create-model-dialog');
    this.deleteDialog = page.getByTestId('delete-model-dialog');
    this.modelPage = this.root.getByTestId('model-page');
    this.name = this.modelPage.getByTestId('model-name');
    this.labelInput = this.modelPage.getByTestId('model-label-input');
    this.status = this.modelPage.getByTestId('model-header').getByTestId('model-status');
    this.dropZone = this.modelPage.getByTestId('photo-drop');
    this.photoInput = this.modelPage.getByTestId('photo-input');
    this.folderInput = this.modelPage.getByTestId('folder-input');
    this.staged = this.modelPage.getByTestId('staged-photo');
    this.stagedSummary = this.modelPage.getByTestId('staged-summary');
    this.refused = this.modelPage.getByTestId('refused-photo');
    this.uploadButton = this.modelPage.getByTestId('upload-photos');
    this.uploadRows = this.modelPage.getByTestId('upload-row');
    this.trainingPanel = this.modelPage.getByTestId('training-panel');
    this.train = this.trainingPanel.getByTestId('train');
    this.trainBlocked = this.trainingPanel.getByTestId('train-blocked');
    this.trainingCount = this.trainingPanel.getByTestId('training-count');
    this.trainingProgress = this.trainingPanel.getByTestId('training-progress');
    this.checkNow = this.trainingPanel.getByTestId('training-check');
    this.trainingRefusal = this.trainingPanel.getByTestId('training-refusal');
    this.trainingRetry = this.trainingPanel.getByTestId('training-retry');
    this.images = this.modelPage.getByTestId('model-images');
    this.imageTiles = this.images.getByTestId('model-image');
  }

  row(name: string): Locator {
    return this.rows.filter({ hasText: name });
  }

  async createModel(label: string, modelType = ''): Promise<void> {
    await this.newModel.click();
    await this.createDialog.getByLabel('Name').fill(label);
    if (modelType) await this.createDialog.getByLabel('Model type').fill(modelType);
    await this.createDialog.getByRole('button', { name: 'Create model' }).click();
  }

  async rename(label: string): Promise<void> {
    await this.name.click();
    await this.labelInput.fill(label);
    await this.labelInput.press('Enter');
  }

  /** Drops files on the drop zone as a browser would: dragenter, dragover and drop carrying a DataTransfer. */
  async dropFiles(files: DropFile[]): Promise<void> {
    await dropFiles(this.page, this.dropZone, files);
  }

  /** Opens the file picker from the keyboard (Tab to "Choose photos…", Enter) and picks the files. */
  async pickFiles(paths: string[]): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.modelPage.getByTestId('pick-photos').focus();
    await this.page.keyboard.press('Enter');
    await (await chooser).setFiles(paths.map((p) => join(PHOTOS_DIR, p)));
  }

  async pickFolder(folder: string): Promise<void> {
    await this.folderInput.setInputFiles(folder);
  }

  async filterImages(label: 'All' | 'Training photos' | 'References' | 'Generated'): Promise<void> {
    await this.images.getByRole('radio', { name: label }).click();
  }
}
