// One test for "the disk is full", whoever noticed: a file write (ENOSPC, or EDQUOT past a quota)
// or SQLite (SQLITE_FULL, also when its journal or WAL could not grow). The library keeps its
// files next to the database by default, so both show up together and must be handled as one.
import { AppError } from '../../contract/errors.ts';

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

export function isDiskFull(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
  }
  return false;
}

/** The one thing the app says about a full disk, wherever the work paused. */
export const DISK_FULL_MESSAGE = 'Paused: disk full — free space and press Resume.';

/** One operation that could not be saved: it fails with this, everything else goes on. */
export function diskFullError(): AppError {
  return new AppError({
    code: 'disk_full',
    message: 'The disk is full, so this could not be saved. Free some space, then try again (downloads: press Resume).',
  });
}
