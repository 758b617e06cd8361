// An append-only log file that rotates by size (atelier.log → atelier.log.1 → … → atelier.log.N).
// Writes are synchronous on purpose: log volume is small, and a line written just before a crash
// is exactly the one worth having.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface RotatingFileOptions {
  path: string;
  /** Rotate before a write would take the file past this size. */
  maxBytes: number;
  /** How many rotated files to keep next to the live one. */
  keep: number;
}

export class RotatingFile {
  readonly path: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private fd: number | null = null;
  private size = 0;

  constructor(options: RotatingFileOptions) {
    this.path = options.path;
    this.maxBytes = Math.max(1024, options.maxBytes);
    this.keep = Math.max(0, Math.floor(options.keep));
    mkdirSync(dirname(this.path), { recursive: true });
    this.open();
  }

  /** Throws only if the file cannot be written at all; the logger decides what to do then. */
  write(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    if (this.size > 0 && this.size + bytes.length > this.maxBytes) this.rotate();
    if (this.fd === null) this.open();
    writeSync(this.fd!, bytes);
    this.size += bytes.length;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private open(): void {
    // 0o600: logs are redacted, but they still describe what the user made.
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.close();
    if (this.keep === 0) {
      rmSync(this.path, { force: true });
    } else {
      rmSync(`${this.path}.${this.keep}`, { force: true });
      for (let i = this.keep - 1; i >= 1; i--) {
        const from = `${this.path}.${i}`;
        if (existsSync(from)) renameSync(from, `${this.path}.${i + 1}`);
      }
      renameSync(this.path, `${this.path}.1`);
    }
    this.open();
  }
}
