// The whole queue's pause: whose it is (the user's, a full disk's, a library move's), the words
// the queue says for it, the user's pause kept across restarts, and a full disk found by any
// local write turning into a pause rather than a crash.
import type { QueuePauseReasonInfo } from '../../../contract/ipc/library.ts';
import { diskFullError, isDiskFull } from '../../host/disk-full.ts';
import type { SyncStateRepo } from '../../db/repos/sync-state-repo.ts';
import { DISK_FULL_MESSAGE } from './download-info.ts';

const QUEUE_PAUSE_KEY = 'library.queuePaused';

export interface QueuePauseDeps {
  syncState: SyncStateRepo;
  now(): number;
  /** Called when the queue pauses: running transfers stop, the renderer is told. */
  onPause(): void;
  /** Called when the pause ends or changes hands. */
  onChange(): void;
  logError?(message: string, error: unknown): void;
}

export class QueuePause {
  readonly #deps: QueuePauseDeps;
  #reason: QueuePauseReasonInfo | null = null;

  constructor(deps: QueuePauseDeps) {
    this.#deps = deps;
  }

  get reason(): QueuePauseReasonInfo | null {
    return this.#reason;
  }

  /** A user's pause survives a restart. */
  restore(): void {
    if (this.#deps.syncState.get(QUEUE_PAUSE_KEY)) this.#reason = 'user';
  }

  message(): string | null {
    switch (this.#reason) {
      case 'disk_full':
        return DISK_FULL_MESSAGE;
      case 'moving':
        return 'Paused while the library folder moves.';
      case 'user':
        return 'Downloads are paused. Press Resume to continue.';
      default:
        return null;
    }
  }

  pause(reason: QueuePauseReasonInfo): void {
    this.#reason = reason;
    try {
      if (reason === 'user') this.#deps.syncState.set(QUEUE_PAUSE_KEY, true, this.#deps.now());
    } catch (error) {
      // Paused all the same; only its surviving a restart is lost.
      if (!isDiskFull(error)) throw error;
    }
    this.#deps.onPause();
  }

  /** Ends the pause (a user's Resume, the end of a move) or hands it back to `next`. */
  end(next: QueuePauseReasonInfo | null): void {
    this.#reason = next;
    this.#deps.onChange();
  }

  /** The user's pause no longer survives a restart (written before the pause ends). */
  forgetUserPause(): void {
    this.#deps.syncState.delete(QUEUE_PAUSE_KEY);
  }

  /**
   * A local write failed outside any one command (a timer, the end of a transfer). A full disk
   * pauses the whole queue in memory (the database may be unable to say so) with the one message;
   * anything else is logged. Never rethrown: it would end the process from a timer.
   */
  localFailure(error: unknown, what: string): void {
    if (isDiskFull(error)) {
      if (this.#reason === null || this.#reason === 'moving') this.pause('disk_full');
      return;
    }
    this.#deps.logError?.(what, error);
  }

  /** Runs a command's writes; a full disk fails this one operation with the message and pauses the queue. */
  command<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.localFailure(error, '');
      throw diskFullError();
    }
  }
}
