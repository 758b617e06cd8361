// What can be done to several assets at once (and to one, from the asset view): download, export
// with JSON sidecars, remove local copies (into the trash), delete on the service (in the
// background: remote-deletion.svelte.ts). Each reports in a toast.
import { accountBound } from '../account-scope.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { invoke } from '../ipc.ts';
import { tally } from '../library/collections.ts';
import { formatCount } from '../library/format.ts';
import { chunk, downloads } from './downloads.svelte.ts';
import { toasts } from './toasts.svelte.ts';
import { remoteDeletion } from './remote-deletion.svelte.ts';
import { trash } from './trash.svelte.ts';
import { TRASH_KEEP_DAYS } from '@contract/ipc/trash.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';

export type BulkAction = 'download' | 'export' | 'remove-local' | 'delete-remote';

const EXPORT_FOLDER_KEY = 'atelier.library.exportFolder';

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The first few reasons, grouped, so a long refusal list stays readable. */
function summarizeReasons(items: { reason: string }[]): string {
  return tally(items.map((item) => item.reason))
    .slice(0, 3)
    .map(([reason, n]) => (n > 1 ? `${reason} (${n}×)` : reason))
    .join(' ');
}

class LibraryActions {
  busy = $state<BulkAction | null>(null);
  exportFolder = $state(readExportFolder());

  constructor() {
    accountBound<LibraryActions>(this, () => ({ busy: null }));
  }

  async #run<T>(action: BulkAction, work: () => Promise<T>): Promise<T | null> {
    if (this.busy) return null;
    this.busy = action;
    try {
      return await work();
    } finally {
      this.busy = null;
    }
  }

  async download(refs: AssetRefInfo[], videoMode?: 'mp4' | 'hls'): Promise<void> {
    await this.#run('download', async () => {
      const queued = await downloads.start(refs, videoMode);
      if (queued > 0) toasts.info(`${plural(queued, 'download')} queued.`);
    });
  }

  /** Copies downloaded files (with a JSON sidecar each) into `folder`; remote-only ones are skipped. */
  async export(refs: AssetRefInfo[], folder: string): Promise<boolean> {
    this.exportFolder = folder;
    try {
      localStorage.setItem(EXPORT_FOLDER_KEY, folder);
    } catch {
      // Storage may be unavailable; the folder is only a convenience.
    }
    const done = await this.#run('export', async () => {
      let exported = 0;
      const skipped: { reason: string }[] = [];
      for (const part of chunk(refs)) {
        const result = await invoke('library:export', { assets: part, to: folder });
        if (!result.ok) {
          toasts.error(result.error.message);
          return false;
        }
        exported += result.value.exported;
        skipped.push(...result.value.skipped);
      }
      const message = `Exported ${plural(exported, 'file')} with JSON sidecars to ${folder}.`;
      if (skipped.length > 0) {
        toasts.show('warning', `${message} Skipped ${formatCount(skipped.length)}: ${summarizeReasons(skipped)}`);
      } else {
        toasts.info(message);
      }
      return true;
    });
    return done ?? false;
  }

  /**
   * Moves the local files into the Atelier trash (kept 30 days); the assets stay on the service.
   * The toast offers Undo, which puts them back.
   */
  async removeLocal(refs: AssetRefInfo[]): Promise<boolean> {
    const done = await this.#run('remove-local', async () => {
      const removed: AssetRefInfo[] = [];
      const failed: { reason: string }[] = [];
      for (const part of chunk(refs)) {
        const result = await invoke('library:remove-local', { assets: part });
        if (!result.ok) {
          toasts.error(result.error.message);
          return false;
        }
        removed.push(...result.value.removed);
        failed.push(...result.value.failed);
      }
      const moved =
        removed.length > 0
          ? `Moved ${plural(removed.length, 'local copy', 'local copies')} to the trash (kept ${TRASH_KEEP_DAYS} days).`
          : failed.length === 0
            ? 'There was no local copy to remove.'
            : '';
      const undo = removed.length > 0 ? { label: 'Undo', run: () => void trash.restore(removed) } : undefined;
      if (failed.length > 0) {
        toasts.show(
          'warning',
          `${moved} Not moved: ${formatCount(failed.length)}. ${summarizeReasons(failed)}`.trim(),
          undo,
        );
      } else {
        toasts.info(moved, undo);
      }
      return true;
    });
    return done ?? false;
  }

  /**
   * Deletes on the service (images only: the service cannot delete videos), in the background, a few
   * at a time, with progress in `deletion` (components/library/DeletionProgress.svelte) and a Cancel
   * that stops the rest; every other action stays usable meanwhile. `named` are the assets as shown,
   * for naming the failures. Resolves when it is over: true when anything was deleted.
   */
  deleteRemote(refs: AssetRefInfo[], named: readonly AssetInfo[] = []): Promise<boolean> {
    return remoteDeletion.run(refs, named);
  }
}

function readExportFolder(): string {
  try {
    return localStorage.getItem(EXPORT_FOLDER_KEY) ?? '';
  } catch {
    return '';
  }
}

export const libraryActions = new LibraryActions();
