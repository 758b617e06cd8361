// The data folder must be writable before anything else starts (settings, the key, the account
// databases and the logs live there). A read-only or unwritable folder is said in one sentence
// naming it and what to do, instead of a raw EROFS stack from whichever write came first.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../contract/errors.ts';

export interface DataDirFs {
  /** Creates the folder and writes (then removes) a small probe file in it. */
  write(dir: string): void;
}

const nodeDataDirFs: DataDirFs = {
  write(dir) {
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, `.write-check-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  },
};

const codeOf = (error: unknown): string => String((error as { code?: unknown } | null)?.code ?? 'unknown');

/** The sentence for a data folder that cannot be written. */
export function dataDirError(dataDir: string, error: unknown): AppError {
  const code = codeOf(error);
  const what =
    code === 'EROFS'
      ? 'is read-only'
      : code === 'ENOSPC' || code === 'EDQUOT'
        ? 'is on a full disk'
        : `cannot be written (${code})`;
  return new AppError({
    code: code === 'ENOSPC' || code === 'EDQUOT' ? 'disk_full' : 'unsupported',
    message: `The data folder ${dataDir} ${what}: Atelier keeps its settings, key, library database and logs there. Make it writable, or start Atelier with another data folder (ATELIER_DATA_DIR, or --data-dir).`,
  });
}

/** Throws dataDirError when the folder cannot be created or written. */
export function checkDataDir(dataDir: string, fs: DataDirFs = nodeDataDirFs): void {
  try {
    fs.write(dataDir);
  } catch (error) {
    throw dataDirError(dataDir, error);
  }
}
