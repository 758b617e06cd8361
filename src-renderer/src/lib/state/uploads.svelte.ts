// Training photos of the open model: dropped or picked files are checked here first (format by content,
// size, SHA-256 duplicates, resolution, the 12–20 count) and shown as thumbnails; Upload hands the
// accepted ones to 'uploads:add', whose queue is followed through 'uploads:changed' (retry, remove).
import { accountScope } from '../account-scope.ts';
import type { UploadInfo } from '@contract/ipc/uploads.ts';
import { MAX_FILES_PER_ADD } from '@contract/ipc/uploads.ts';
import { detectImageFormat } from '@contract/rules/index.ts';
import { invoke, on } from '../ipc.ts';
import { sendFileForUpload } from '../upload-files.ts';
import { withAcceptedUploads } from '../models/accepted-uploads.ts';
import { FORMAT_SNIFF_BYTES, judgePhotos, quickRefusal, type PhotoFacts } from '../models/photo-checks.ts';

export interface StagedPhoto {
  key: number;
  file: File;
  sha256: string | null;
  /** Object URL of the file for its thumbnail; revoked when it leaves the list. */
  url: string;
  width: number | null;
  height: number | null;
  warning: string | null;
}

export interface RefusedPhoto {
  key: number;
  name: string;
  reason: string;
}

/** Bytes per uploads:add call: the core holds a batch's files in memory until they are queued. */
const BATCH_BYTES = 24 * 1024 * 1024;
const LIVE: ReadonlySet<UploadInfo['state']> = new Set(['queued', 'uploading']);

const hex = (buffer: ArrayBuffer): string =>
  [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');

async function sha256Of(file: File): Promise<string | null> {
  // crypto.subtle exists in secure contexts only (loopback and the app's own scheme are); the core checks again.
  if (!globalThis.crypto?.subtle) return null;
  return hex(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
}

async function dimensionsOf(file: File): Promise<{ width: number | null; height: number | null }> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    // HEIC and other formats this browser cannot decode: size unknown, which is no reason to refuse.
    return { width: null, height: null };
  }
}

async function factsOf(file: File): Promise<PhotoFacts> {
  const head = new Uint8Array(await file.slice(0, FORMAT_SNIFF_BYTES).arrayBuffer());
  const format = detectImageFormat(head);
  const base = { name: file.name, bytes: file.size, format };
  if (quickRefusal(base)) return { ...base, sha256: null, width: null, height: null };
  const [sha256, size] = await Promise.all([sha256Of(file), dimensionsOf(file)]);
  return { ...base, sha256, ...size };
}

/** The core words its refusals as `"name" was not added: reason`; the name is shown on its own here. */
const reasonOnly = (reason: string): string => reason.replace(/^".*?" was not added: /, '');

class UploadsState {
  modelId = $state<string | null>(null);
  staged = $state<StagedPhoto[]>([]);
  refused = $state<RefusedPhoto[]>([]);
  queue = $state<UploadInfo[]>([]);
  checking = $state(false);
  sending = $state(false);
  error = $state<string | null>(null);

  readonly inFlight = $derived(this.queue.filter((u) => u.type === 'modelInput' && LIVE.has(u.state)).length);
  readonly finished = $derived(this.queue.filter((u) => u.state === 'succeeded'));

  #nextKey = 1;
  /** Hashes sent from here per model (the service lists no hashes, so this is what the renderer knows). */
  #sent = new Map<string, ReadonlySet<string>>();

  constructor() {
    accountScope.bind({
      reset: () => {
        this.clearStaged();
        Object.assign(this, { modelId: null, refused: [], queue: [], checking: false, sending: false, error: null });
        this.#sent.clear();
      },
    });
  }

  async open(modelId: string | null): Promise<void> {
    if (modelId === this.modelId) return;
    this.clearStaged();
    this.refused = [];
    this.error = null;
    this.queue = [];
    this.modelId = modelId;
    if (!modelId) return;
    const result = await invoke('uploads:list', { modelID: modelId });
    if (this.modelId === modelId && result.ok) this.queue = result.value.filter((u) => u.state !== 'removed');
  }

  /** Checks files before anything is sent; the model has `modelCount` training photos already. */
  async add(files: File[], modelCount: number): Promise<void> {
    const modelId = this.modelId;
    if (!modelId || files.length === 0) return;
    this.checking = true;
    this.refused = [];
    const facts = await Promise.all(files.map(factsOf));
    this.checking = false;
    if (this.modelId !== modelId) return;
    const known = new Set([...(this.#sent.get(modelId) ?? []), ...this.staged.flatMap((s) => s.sha256 ?? [])]);
    const verdicts = judgePhotos(facts, {
      countBefore: modelCount + this.inFlight + this.staged.length,
      knownHashes: known,
    });
    const staged: StagedPhoto[] = [];
    const refused: RefusedPhoto[] = [];
    verdicts.forEach((verdict, i) => {
      const file = files[i]!;
      const fact = facts[i]!;
      if (!verdict.ok) refused.push({ key: this.#nextKey++, name: file.name, reason: verdict.reason });
      else
        staged.push({
          key: this.#nextKey++,
          file,
          sha256: fact.sha256,
          url: URL.createObjectURL(file),
          width: fact.width,
          height: fact.height,
          warning: verdict.warning,
        });
    });
    this.staged = [...this.staged, ...staged];
    this.refused = refused;
  }

  unstage(key: number): void {
    const photo = this.staged.find((s) => s.key === key);
    if (photo) URL.revokeObjectURL(photo.url);
    this.staged = this.staged.filter((s) => s.key !== key);
  }

  clearStaged(): void {
    this.staged.forEach((s) => URL.revokeObjectURL(s.url));
    this.staged = [];
  }

  /** Sends the staged photos in batches the bridge carries comfortably; the core checks them once more. */
  async send(): Promise<void> {
    const modelId = this.modelId;
    const photos = this.staged;
    if (!modelId || photos.length === 0 || this.sending) return;
    this.sending = true;
    this.error = null;
    // The drop's refusals have been read by now; what the core refuses below replaces them.
    this.refused = [];
    const refused: RefusedPhoto[] = [];
    try {
      for (const batch of batches(photos)) {
        // Each file goes in 1 MiB chunks, one after the other; then the batch is added at once.
        const files: { fileId: string }[] = [];
        let failure: string | null = null;
        for (const photo of batch) {
          const sent = await sendFileForUpload(photo.file);
          if (!sent.ok) {
            failure = `${photo.file.name}: ${sent.error.message}`;
            break;
          }
          files.push(sent.value);
        }
        if (failure !== null) {
          this.error = failure;
          break;
        }
        const result = await invoke('uploads:add', { modelID: modelId, type: 'modelInput', files });
        if (!result.ok) {
          this.error = result.error.message;
          break;
        }
        const hashes = batch.flatMap((p) => p.sha256 ?? []);
        this.#sent.set(modelId, new Set([...(this.#sent.get(modelId) ?? []), ...hashes]));
        batch.forEach((p) => this.unstage(p.key));
        for (const r of result.value.refused)
          refused.push({ key: this.#nextKey++, name: r.name, reason: reasonOnly(r.reason) });
        this.queue = withAcceptedUploads(this.queue, result.value.accepted).sort((a, b) => a.id - b.id);
      }
    } catch (error) {
      this.error = error instanceof Error ? error.message : 'The photos could not be read.';
    } finally {
      this.refused = [...this.refused, ...refused];
      this.sending = false;
    }
  }

  async retry(id: number): Promise<void> {
    const result = await invoke('uploads:retry', { id });
    if (result.ok) this.#upsert(result.value);
    else this.error = result.error.message;
  }

  async remove(id: number): Promise<void> {
    const result = await invoke('uploads:remove', { id });
    if (result.ok) this.queue = this.queue.filter((u) => u.id !== id);
    else this.error = result.error.message;
  }

  async clearFinished(): Promise<void> {
    await Promise.all(this.finished.map((u) => this.remove(u.id)));
  }

  /** Follows the open model's uploads; `onUploaded` runs when one reaches the service. */
  listen(onUploaded: () => void): () => void {
    return on('uploads:changed', (upload) => {
      if (upload.modelId !== this.modelId) return;
      if (upload.state === 'removed') this.queue = this.queue.filter((u) => u.id !== upload.id);
      else this.#upsert(upload);
      if (upload.state === 'succeeded') onUploaded();
    });
  }

  #upsert(...uploads: UploadInfo[]): void {
    const ids = new Set(uploads.map((u) => u.id));
    this.queue = [...this.queue.filter((u) => !ids.has(u.id)), ...uploads].sort((a, b) => a.id - b.id);
  }
}

function batches(photos: StagedPhoto[]): StagedPhoto[][] {
  const out: StagedPhoto[][] = [];
  let current: StagedPhoto[] = [];
  let bytes = 0;
  for (const photo of photos) {
    if (current.length > 0 && (current.length >= MAX_FILES_PER_ADD || bytes + photo.file.size > BATCH_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(photo);
    bytes += photo.file.size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export const uploads = new UploadsState();
