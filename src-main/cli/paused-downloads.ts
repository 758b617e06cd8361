// A download queue that is paused cannot finish while the CLI waits (a full disk is only re-checked
// on Resume or at the next start; a user's pause or a folder move ends elsewhere): commands that
// wait on downloads end with what to do and EXIT.paused instead of waiting for ever. Nothing is
// lost: the rows stay queued, the part files stay, and the next run resumes them.
import type { DownloadQueueInfo } from '../contract/ipc/library.ts';
import { MIN_FREE_BYTES, statfsFreeBytes } from '../core/library/library-host.ts';
import { CliError, EXIT } from './exit-codes.ts';
import type { Session } from './session.ts';

const MB = 1024 * 1024;

/** "12 MB", "3.4 GB", "less than 1 MB". */
export function spokenSize(bytes: number): string {
  if (bytes < MB) return 'less than 1 MB';
  if (bytes < 1024 * MB) return `${Math.floor(bytes / MB)} MB`;
  return `${(bytes / (1024 * MB)).toFixed(1)} GB`;
}

const RESUMES =
  'The download is kept and resumes where it stopped on the next run (the same command, or `atelier watch`).';

/** Why the queue is paused, in the CLI's words, with the library folder and its free space. */
export async function pausedDownloadsError(session: Session, queue: DownloadQueueInfo): Promise<CliError> {
  const folder = session.core.settings.get().libraryDir;
  if (queue.pauseReason === 'disk_full') {
    const free = await statfsFreeBytes(folder).catch(() => null);
    const has = free === null ? 'is full' : `has ${spokenSize(free)} free`;
    return new CliError(
      {
        code: 'disk_full',
        message: `Downloads are paused: the disk of the library folder ${folder} ${has}; Atelier needs at least ${spokenSize(MIN_FREE_BYTES)} free to download. Free some space, then run the command again. ${RESUMES}`,
      },
      EXIT.paused,
    );
  }
  const why =
    queue.pauseReason === 'moving'
      ? `Downloads are paused while the library folder moves (from ${folder}).`
      : 'Downloads are paused in Atelier (press Resume in the app).';
  return new CliError({ code: 'conflict', message: `${why} ${RESUMES}` }, EXIT.paused);
}

/** True when the queue will not move by itself while this command waits. */
export const isQueuePaused = (queue: DownloadQueueInfo): boolean => queue.state === 'paused';
