// A trained model's auxiliary (reference) images, for the Create image inputImageId picker: listed from
// the cache, and new ones uploaded by drop or file picker (checked by the core before anything is sent).
import { accountBound } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { UploadInfo } from '@contract/ipc/uploads.ts';
import { invoke, on } from '../ipc.ts';
import { sendFileForUpload } from '../upload-files.ts';
import { withAcceptedUploads } from '../models/accepted-uploads.ts';
import { toasts } from './toasts.svelte.ts';

const LIST_LIMIT = 100;

class InputImagesState {
  modelId = $state<string | null>(null);
  items = $state<AssetInfo[]>([]);
  loading = $state(false);
  /** Uploads of this model's reference images still on their way. */
  uploading = $state<UploadInfo[]>([]);
  /** Why files were refused, from the last drop. */
  refused = $state<string[]>([]);
  /** Uploads that ended (events can come before the answer that queued them). */
  #ended = new Set<number>();

  constructor() {
    accountBound<InputImagesState>(
      this,
      () => ({ modelId: null, items: [], loading: false, uploading: [], refused: [] }),
      {
        reset: () => this.#ended.clear(),
      },
    );
  }

  async load(modelId: string | null): Promise<void> {
    // Refusals belong to the model they were made for: a reload after an upload keeps them.
    if (modelId !== this.modelId) this.refused = [];
    this.modelId = modelId;
    if (!modelId) {
      this.items = [];
      return;
    }
    this.loading = true;
    const result = await invoke('models:images', { modelId, imageType: 'auxiliaryType', limit: LIST_LIMIT });
    this.loading = false;
    if (this.modelId !== modelId) return;
    this.items = result.ok ? result.value.items : [];
  }

  /** Sends dropped or picked files as reference images; resolves with the ids of those already up. */
  async upload(files: File[]): Promise<void> {
    const modelID = this.modelId;
    if (!modelID || files.length === 0) return;
    // In 1 MiB chunks, so a large reference image never travels as one message.
    const payload: { fileId: string }[] = [];
    const notSent: string[] = [];
    for (const file of files) {
      const sent = await sendFileForUpload(file);
      if (sent.ok) payload.push(sent.value);
      else notSent.push(`${file.name}: ${sent.error.message}`);
    }
    if (payload.length === 0) {
      this.refused = notSent;
      return;
    }
    const result = await invoke('uploads:add', { modelID, type: 'auxiliaryType', files: payload });
    if (!result.ok) {
      toasts.error(result.error.message);
      return;
    }
    this.refused = [...notSent, ...result.value.refused.map((r) => `${r.name}: ${r.reason}`)];
    this.uploading = withAcceptedUploads(this.uploading, result.value.accepted, this.#ended);
  }

  /** Follows this model's uploads; a finished one reloads the list. */
  listen(onUploaded: (imageId: string) => void): () => void {
    return on('uploads:changed', (upload) => {
      if (upload.modelId !== this.modelId || upload.type !== 'auxiliaryType') return;
      const others = this.uploading.filter((u) => u.id !== upload.id);
      const live = upload.state === 'queued' || upload.state === 'uploading';
      if (!live) this.#ended.add(upload.id);
      this.uploading = live ? [...others, upload] : others;
      if (upload.state === 'failed' && upload.error)
        this.refused = [...this.refused, `${upload.fileName}: ${upload.error}`];
      if (upload.state === 'succeeded' && upload.imageId) {
        onUploaded(upload.imageId);
        void this.load(this.modelId);
      }
    });
  }
}

export const inputImages = new InputImagesState();
