// Moving the library folder, in words: checks of the typed destination before anything is sent, the
// progress line of each phase, and what to do after a failure. The core checks again and does the work.
import type { ErrorInfo } from '@contract/errors.ts';
import type { LibraryMoveInfo } from '@contract/ipc/library.ts';
import { formatBytes, formatCount } from './format.ts';

type MoveState = LibraryMoveInfo['state'];

const FULL_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\[^\\])/;

const ACTIVE: ReadonlySet<MoveState> = new Set(['copying', 'verifying', 'switching', 'cleaning']);
/** Until every copy is checked; after that the switch happens and the move runs to its end. */
const ABORTABLE: ReadonlySet<MoveState> = new Set(['copying', 'verifying']);

export const isMoveActive = (state: MoveState): boolean => ACTIVE.has(state);
export const canAbortMove = (state: MoveState): boolean => ABORTABLE.has(state);

/** Forward slashes, no trailing separator (a root stays "/" or "C:/"). */
function comparable(path: string): string {
  const forward = path.trim().replace(/\\/g, '/');
  const trimmed = forward.replace(/\/+$/, '');
  return trimmed === '' || /^[A-Za-z]:$/.test(trimmed) ? `${trimmed}/` : trimmed;
}

const within = (parent: string, child: string): boolean => {
  const base = parent.endsWith('/') ? parent : `${parent}/`;
  return child !== parent && child.startsWith(base);
};

/** Why a destination cannot be used, checked as the user types; null when it may be tried. */
export function moveTargetProblem(to: string, from: string): string | null {
  const target = to.trim();
  if (target === '') return 'Type the folder to move the library to.';
  if (!FULL_PATH.test(target)) return 'Give a full path, e.g. /home/me/Pictures/Atelier or D:\\Pictures\\Atelier.';
  const next = comparable(target);
  const current = comparable(from);
  if (next === current) return 'That is already the library folder.';
  if (within(current, next)) return 'The new folder cannot be inside the current library folder.';
  if (within(next, current)) return 'The current library is inside that folder; choose an empty folder or a new one.';
  return null;
}

/** 0..1 of the work done (bytes, or files when they are all empty); undefined when unknown. */
export function moveFraction(info: LibraryMoveInfo): number | undefined {
  if (info.state === 'switching' || info.state === 'cleaning' || info.state === 'done') return 1;
  if (info.bytesTotal > 0) return info.bytesDone / info.bytesTotal;
  if (info.filesTotal > 0) return info.filesDone / info.filesTotal;
  return undefined;
}

export function movePhaseText(state: MoveState): string {
  switch (state) {
    case 'copying':
    case 'verifying':
      return 'Copying and checking files…';
    case 'switching':
      return 'Switching to the new folder…';
    case 'cleaning':
      return 'Deleting the old copies…';
    case 'done':
      return 'The library was moved.';
    case 'aborted':
      return 'The move was stopped.';
    case 'failed':
      return 'The library could not be moved.';
  }
}

const files = (n: number): string => `${formatCount(n)} file${n === 1 ? '' : 's'}`;

/** "3 of 12 files · 1.4 MB of 8.0 MB" */
export const moveCountsText = (info: LibraryMoveInfo): string =>
  `${formatCount(info.filesDone)} of ${files(info.filesTotal)} · ${formatBytes(info.bytesDone)} of ${formatBytes(info.bytesTotal)}`;

/** "12 files (8.0 MB)" */
export const moveTotalText = (info: LibraryMoveInfo): string =>
  `${files(info.filesTotal)} (${formatBytes(info.bytesTotal)})`;

/** Dispatch's answer for an unexpected failure (a folder that cannot be created or written, say). */
const GENERIC = /^Something went wrong in /;

export interface MoveFailureText {
  message: string;
  /** What the user can do about it; null when the message already says. */
  advice: string | null;
}

export function moveFailureText(error: ErrorInfo): MoveFailureText {
  switch (error.code) {
    case 'disk_full':
      return {
        message: 'There is not enough free space on the disk of the new folder.',
        advice: 'Free some space there, or choose a folder on another disk.',
      };
    case 'invalid_argument':
      return { message: error.message, advice: null };
    case 'conflict':
      return { message: error.message, advice: 'Wait until it has finished, then try again.' };
    case 'internal':
      return {
        message: GENERIC.test(error.message) ? 'Atelier could not create or write to the new folder.' : error.message,
        advice:
          'Check that the disk is connected and that you are allowed to write there, then try again. Details are in the log.',
      };
    default:
      return { message: error.message, advice: 'Try again.' };
  }
}
