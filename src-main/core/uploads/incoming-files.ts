// Files a renderer sends for upload arrive in chunks (uploads:begin-file, uploads:send-chunk), so
// no message of any transport has to carry a whole 20 MB photo. They wait here, in memory and
// bounded (count, total bytes, idle time), until uploads:add takes them.
import { randomBytes } from 'node:crypto';
import { AppError } from '../../contract/errors.ts';
import { MAX_UPLOAD_FILE_BYTES } from '../../contract/ipc/uploads.ts';

export interface IncomingFilesOptions {
  /** At most this many files arriving at once. */
  maxFiles?: number;
  /** At most this many bytes announced at once, over every file. */
  maxTotalBytes?: number;
  /** A file not added within this long after its last chunk is dropped. */
  idleMs?: number;
  now?: () => number;
}

interface Incoming {
  name: string;
  buffer: Buffer;
  received: number;
  touchedAt: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const refuse = (message: string, field?: string): AppError =>
  new AppError({ code: 'invalid_argument', message, ...(field ? { field } : {}) });

export class IncomingFiles {
  readonly #files = new Map<string, Incoming>();
  readonly #maxFiles: number;
  readonly #maxTotalBytes: number;
  readonly #idleMs: number;
  readonly #now: () => number;

  constructor(options: IncomingFilesOptions = {}) {
    this.#maxFiles = options.maxFiles ?? 80;
    this.#maxTotalBytes = options.maxTotalBytes ?? 256 * 1024 * 1024;
    this.#idleMs = options.idleMs ?? 10 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  begin(name: string, size: number): string {
    this.#expire();
    if (!Number.isInteger(size) || size < 1 || size > MAX_UPLOAD_FILE_BYTES) {
      throw refuse(`"${name}" is larger than 20 MB; the service accepts at most 20 MB per image.`, 'size');
    }
    const pending = [...this.#files.values()].reduce((sum, f) => sum + f.buffer.byteLength, 0);
    if (this.#files.size >= this.#maxFiles || pending + size > this.#maxTotalBytes) {
      throw new AppError({
        code: 'conflict',
        message: 'Too many files are on their way at once; add these after the current ones.',
      });
    }
    const fileId = randomBytes(16).toString('hex');
    this.#files.set(fileId, { name, buffer: Buffer.alloc(size), received: 0, touchedAt: this.#now() });
    return fileId;
  }

  /** Appends the next chunk; chunks come in order, so a repeated or skipped one is refused. */
  append(fileId: string, offset: number, bytesBase64: string): { received: number; complete: boolean } {
    this.#expire();
    const file = this.#get(fileId);
    if (offset !== file.received) {
      throw refuse(
        `This chunk starts at byte ${offset}, but ${file.received} bytes have arrived; send from there.`,
        'offset',
      );
    }
    if (!BASE64.test(bytesBase64)) throw refuse('The chunk did not arrive intact (not base64).', 'bytesBase64');
    const bytes = Buffer.from(bytesBase64, 'base64');
    if (file.received + bytes.byteLength > file.buffer.byteLength) {
      this.#files.delete(fileId);
      throw refuse(`"${file.name}" is longer than announced; send it again.`, 'bytesBase64');
    }
    bytes.copy(file.buffer, file.received);
    file.received += bytes.byteLength;
    file.touchedAt = this.#now();
    return { received: file.received, complete: file.received === file.buffer.byteLength };
  }

  /** Checks every id first, then hands the files over (and forgets them): all or nothing. */
  takeAll(fileIds: readonly string[]): { name: string; bytes: Uint8Array }[] {
    this.#expire();
    const files = fileIds.map((id) => {
      const file = this.#get(id);
      if (file.received !== file.buffer.byteLength) {
        throw refuse(`"${file.name}" has not fully arrived (${file.received} of ${file.buffer.byteLength} bytes).`);
      }
      return file;
    });
    if (new Set(fileIds).size !== fileIds.length) throw refuse('The same file is listed twice.');
    for (const id of fileIds) this.#files.delete(id);
    return files.map((file) => ({ name: file.name, bytes: file.buffer }));
  }

  /** Bytes held now (tests, diagnostics). */
  heldBytes(): number {
    return [...this.#files.values()].reduce((sum, f) => sum + f.buffer.byteLength, 0);
  }

  #get(fileId: string): Incoming {
    const file = this.#files.get(fileId);
    if (!file) throw refuse('That file is not (or no longer) on its way: send it again.', 'fileId');
    return file;
  }

  #expire(): void {
    const oldest = this.#now() - this.#idleMs;
    for (const [id, file] of this.#files) if (file.touchedAt < oldest) this.#files.delete(id);
  }
}
