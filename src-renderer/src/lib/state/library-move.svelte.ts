// Moving the library folder (library:move): the move under way from every 'library:move-progress',
// so Settings shows it again after leaving the view or reloading, and its outcome until dismissed.
// A destination refused before any file was touched is kept apart (`refusal`), for the dialog to show.
import type { ErrorInfo } from '@contract/errors.ts';
import type { LibraryMoveInfo } from '@contract/ipc/library.ts';
import { invoke, on } from '../ipc.ts';
import { isMoveActive } from '../library/library-move.ts';
import { downloads } from './downloads.svelte.ts';
import { router } from './router.svelte.ts';
import { toasts } from './toasts.svelte.ts';

class LibraryMoveState {
  /** The move under way, or how the last one ended (until dismissed). */
  info = $state<LibraryMoveInfo | null>(null);
  /** A library:move call is waiting for its answer. */
  starting = $state(false);
  aborting = $state(false);
  /** Why the destination was refused before anything was copied (not empty, no room, cannot write…). */
  refusal = $state<ErrorInfo | null>(null);

  readonly active = $derived(this.info !== null && isMoveActive(this.info.state));
  /** The library folder must not change now (a move is starting or running). */
  readonly busy = $derived(this.starting || this.active);

  listen(): () => void {
    return on('library:move-progress', (info) => {
      this.info = info;
      // A move this page did not start (or started before a reload) ends here; start() handles its own.
      if (!isMoveActive(info.state) && !this.starting) this.#afterMove();
    });
  }

  /** Starts a move; resolves when it has ended (done, aborted, failed or refused). */
  async start(to: string): Promise<void> {
    if (this.busy) return;
    this.starting = true;
    this.info = null;
    this.refusal = null;
    const result = await invoke('library:move', { to });
    this.starting = false;
    this.aborting = false;
    // Progress events arrived meanwhile (TypeScript still sees the null set above).
    const last = this.info as LibraryMoveInfo | null;
    if (result.ok) {
      this.info = result.value;
    } else if (last === null) {
      // No progress was reported: nothing was copied, the folder was refused up front.
      this.refusal = result.error;
    } else {
      this.info = { ...last, state: 'failed', error: last.error ?? result.error };
    }
    this.#afterMove();
    if (this.info && router.view !== 'settings') this.#toastOutcome(this.info);
  }

  /** Downloads were held for the move and run again (in the new folder): show the queue as it is now. */
  #afterMove(): void {
    void downloads.load();
  }

  async abort(): Promise<void> {
    if (!this.active || this.aborting) return;
    this.aborting = true;
    const result = await invoke('library:move-abort');
    if (!result.ok) {
      this.aborting = false;
      toasts.error(result.error.message);
    }
  }

  clearRefusal(): void {
    this.refusal = null;
  }

  /** Forgets a finished move's outcome (a running move stays). */
  dismiss(): void {
    if (!this.busy) this.info = null;
  }

  /** Settings shows the outcome in place; elsewhere a toast says how it ended. */
  #toastOutcome(info: LibraryMoveInfo): void {
    if (info.state === 'done') toasts.info(`The library was moved to ${info.to}.`);
    else if (info.state === 'aborted')
      toasts.show('warning', `The move was stopped; the library stays in ${info.from}.`);
    else if (info.state === 'failed') toasts.error(info.error?.message ?? 'The library could not be moved.');
  }
}

export const libraryMove = new LibraryMoveState();
