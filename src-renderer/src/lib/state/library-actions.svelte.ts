// What can be done to several assets at once (and to one, from the asset view): download, export
// with JSON sidecars, remove local copies, delete on the service. Each reports in a toast.
import { accountBound } from '../account-scope.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { invoke } from '../ipc.ts';
import { tally } from '../library/collections.ts';
import { formatCount } from '../library/format.ts';
import { chunk, downloads } from './downloads.svelte.ts';
import { serviceReach } from './service-reach.svelte.ts';
import { toasts } from './toasts.svelte.ts';

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

  /** Deletes the local files only; the assets stay on the service. */
  async removeLocal(refs: AssetRefInfo[]): Promise<boolean> {
    const done = await this.#run('remove-local', async () => {
      let removed = 0;
      for (const part of chunk(refs)) {
        const result = await invoke('library:remove-local', { assets: part });
        if (!result.ok) {
          toasts.error(result.error.message);
          return false;
        }
        removed += result.value.removed.length;
      }
      toasts.info(
        removed > 0
          ? `Removed ${plural(removed, 'local copy', 'local copies')}.`
          : 'There was no local copy to remove.',
      );
      return true;
    });
    return done ?? false;
  }

  /** Deletes on the service (images only: the service cannot delete videos). */
  async deleteRemote(refs: AssetRefInfo[]): Promise<boolean> {
    const done = await this.#run('delete-remote', async () => {
      let deleted = 0;
      const refused: { reason: string }[] = [];
      for (const part of chunk(refs)) {
        const result = await invoke('library:delete-remote', { assets: part });
        if (!result.ok) {
          serviceReach.noteError(result.error);
          toasts.error(result.error.message);
          return false;
        }
        deleted += result.value.deleted.length;
        refused.push(...result.value.refused);
      }
      if (refused.length > 0) {
        const lead = deleted > 0 ? `Deleted ${plural(deleted, 'item')} from the service. ` : '';
        toasts.show('warning', `${lead}Not deleted: ${formatCount(refused.length)}. ${summarizeReasons(refused)}`);
      } else {
        toasts.info(`Deleted ${plural(deleted, 'item')} from the service.`);
      }
      return deleted > 0;
    });
    return done ?? false;
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
