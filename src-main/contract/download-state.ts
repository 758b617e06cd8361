// What each download state means, once for every side: which ones are under way (the queue's
// active + waiting, the status bar's "n downloading"), which are unfinished (the asset view offers
// Cancel), and which move bytes (a tile draws its progress). A new state must be placed here
// (`Record` over the state union), so nothing that asks "is it active?" can miss it.
import type { DownloadStateInfo } from './ipc/library.ts';

export type DownloadPhase =
  /** Waiting for a transfer slot. */
  | 'waiting'
  /** The service prepares the file (a video's first step) or its bytes arrive. */
  | 'moving'
  /** Held by the user or by a full disk; resumes where it stopped. */
  | 'paused'
  /** Over: the file is in the library, or it failed for good. */
  | 'ended';

export const DOWNLOAD_PHASE: Readonly<Record<DownloadStateInfo, DownloadPhase>> = {
  queued: 'waiting',
  preparing: 'moving',
  downloading: 'moving',
  paused: 'paused',
  succeeded: 'ended',
  failed: 'ended',
};

/** Waiting or moving: what the queue counts as active + waiting. */
export const isDownloadUnderWay = (state: DownloadStateInfo): boolean =>
  DOWNLOAD_PHASE[state] === 'waiting' || DOWNLOAD_PHASE[state] === 'moving';

/** Not over yet: under way or paused (it can still be cancelled). */
export const isDownloadUnfinished = (state: DownloadStateInfo): boolean => DOWNLOAD_PHASE[state] !== 'ended';

/** Bytes (or the service's preparing percent) are moving: there is progress to show. */
export const isDownloadMoving = (state: DownloadStateInfo): boolean => DOWNLOAD_PHASE[state] === 'moving';
