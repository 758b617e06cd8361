// The writer of a download's `.part` file: one descriptor from the first byte to the close.
// Chunks that gather while a write is in flight go down together in one writev, and the end
// fsyncs that same descriptor before closing it, so 'finish' means every byte is on disk: the
// fsync the rename needs costs no second open and close (fs.WriteStream's `flush` would sync only
// in its destroy, after 'finish', where a failure no longer fails the write).
import { close, fsync, open, write, writev } from 'node:fs';
import { Writable } from 'node:stream';

type Callback = (error?: Error | null) => void;

export interface PartWriterOptions {
  /** Bytes buffered before write() asks the body to wait. */
  highWaterMark: number;
  /** The fsync of the end (tests count it); default node:fs fsync. */
  fsync?: (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;
}

export class PartWriter extends Writable {
  readonly #path: string;
  readonly #truncate: boolean;
  readonly #fsync: NonNullable<PartWriterOptions['fsync']>;
  #fd: number | null = null;
  #position: number;

  /** Writes from `start` on: creating or truncating the file when start is 0, keeping what is before it otherwise. */
  constructor(path: string, start: number, options: PartWriterOptions) {
    super({ highWaterMark: options.highWaterMark });
    this.#path = path;
    this.#truncate = start === 0;
    this.#position = start;
    this.#fsync = options.fsync ?? fsync;
  }

  override _construct(callback: Callback): void {
    open(this.#path, this.#truncate ? 'w' : 'r+', 0o666, (error, fd) => {
      if (!error) this.#fd = fd;
      callback(error);
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: Callback): void {
    this.#writeAll([chunk], callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: Callback): void {
    this.#writeAll(
      chunks.map((c) => c.chunk),
      callback,
    );
  }

  #writeAll(buffers: Buffer[], callback: Callback): void {
    const fd = this.#fd!;
    let total = 0;
    for (const buffer of buffers) total += buffer.length;
    const wrote = (error: NodeJS.ErrnoException | null, written: number): void => {
      if (error) return callback(error);
      if (written === 0) return callback(Object.assign(new Error('The disk took no bytes.'), { code: 'EIO' }));
      this.#position += written;
      if (written === total) return callback();
      // A short write: the rest, from where it stopped.
      let skip = written;
      const rest: Buffer[] = [];
      for (const buffer of buffers) {
        if (skip >= buffer.length) skip -= buffer.length;
        else {
          rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
          skip = 0;
        }
      }
      this.#writeAll(rest, callback);
    };
    if (buffers.length === 1) write(fd, buffers[0]!, 0, total, this.#position, wrote);
    else writev(fd, buffers, this.#position, wrote);
  }

  override _final(callback: Callback): void {
    this.#fsync(this.#fd!, callback);
  }

  override _destroy(error: Error | null, callback: Callback): void {
    const fd = this.#fd;
    this.#fd = null;
    if (fd === null) return callback(error);
    close(fd, (closeError) => callback(error ?? closeError));
  }
}
