// Deleting on the service in the background (library:delete-remote, a few assets per call): the
// progress line ("Deleting 12 of 37…", Cancel) and, when it is over, what could not be deleted with
// the service's reason, shown by components/library/DeletionProgress.svelte. The core keeps its
// per-request behaviour (the client's rate-limit waits, a 404 counted as already gone). Deletions
// asked for while one runs join it.
import { accountBound } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { invoke } from '../ipc.ts';
import { formatCount } from '../library/format.ts';
import { names } from './names.svelte.ts';
import { serviceReach } from './service-reach.svelte.ts';
import { toasts } from './toasts.svelte.ts';

/** Assets per call: small, so the progress moves and Cancel stops soon. */
const STEP = 3;

export interface DeletionFailure {
  /** The asset by name ("Sunset over the bay"), never its id. */
  name: string;
  reason: string;
}

export interface DeletionProgress {
  total: number;
  done: number;
  deleted: number;
  failures: DeletionFailure[];
  /** Cancel was pressed: the rest is not sent. */
  cancelled: boolean;
  /** Over: the line shows the outcome until dismissed. */
  finished: boolean;
}

const key = (ref: AssetRefInfo): string => `${ref.kind}:${ref.id}`;

class RemoteDeletion {
  progress = $state<DeletionProgress | null>(null);
  #queue: AssetRefInfo[] = [];
  #names = new Map<string, string>();
  #running: Promise<boolean> | null = null;

  constructor() {
    accountBound<RemoteDeletion>(this, () => ({ progress: null }), {
      reset: () => {
        this.#queue = [];
        this.#names.clear();
      },
    });
  }

  get running(): boolean {
    return this.progress !== null && !this.progress.finished;
  }

  /** Deletes these (joining a deletion under way); resolves when all of it is over. */
  run(refs: readonly AssetRefInfo[], named: readonly AssetInfo[]): Promise<boolean> {
    for (const asset of named) this.#names.set(key(asset), names.asset(asset));
    this.#queue.push(...refs);
    if (this.running && this.progress && this.#running) {
      this.progress.total += refs.length;
      return this.#running;
    }
    this.progress = { total: refs.length, done: 0, deleted: 0, failures: [], cancelled: false, finished: false };
    this.#running = this.#work();
    return this.#running;
  }

  cancel(): void {
    if (this.progress && !this.progress.finished) this.progress.cancelled = true;
  }

  dismiss(): void {
    if (this.progress?.finished) this.progress = null;
  }

  async #work(): Promise<boolean> {
    const progress = this.progress;
    if (!progress) return false;
    const nameOf = (ref: AssetRefInfo) => this.#names.get(key(ref)) ?? (ref.kind === 'video' ? 'A video' : 'An image');
    while (this.#queue.length > 0 && !progress.cancelled) {
      const part = this.#queue.splice(0, STEP);
      const result = await invoke('library:delete-remote', { assets: part });
      if (!result.ok) {
        // The whole call failed (offline, the key refused): the rest would fail alike.
        serviceReach.noteError(result.error);
        for (const ref of [...part, ...this.#queue.splice(0)])
          progress.failures.push({ name: nameOf(ref), reason: result.error.message });
        progress.done += part.length;
        break;
      }
      progress.deleted += result.value.deleted.length;
      for (const { asset, reason } of result.value.refused) progress.failures.push({ name: nameOf(asset), reason });
      progress.done += part.length;
    }
    const left = this.#queue.splice(0).length;
    progress.finished = true;
    this.#running = null;
    this.#names.clear();
    const items = (n: number) => `${formatCount(n)} ${n === 1 ? 'item' : 'items'}`;
    const said = progress.cancelled
      ? `Deleted ${items(progress.deleted)} from the service; cancelled, ${formatCount(left)} not sent.`
      : `Deleted ${items(progress.deleted)} from the service.`;
    if (progress.failures.length === 0) {
      toasts.info(said);
      // Nothing to list: the line goes with the toast.
      this.progress = null;
    } else {
      toasts.show(
        'warning',
        `${said} Not deleted: ${formatCount(progress.failures.length)} (listed below the Library).`,
      );
    }
    return progress.deleted > 0;
  }
}

export const remoteDeletion = new RemoteDeletion();
