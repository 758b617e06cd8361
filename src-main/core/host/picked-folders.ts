// Folders the user chose in the main process's own folder dialog (shell:pick-folder). In the app
// a library folder is accepted only from here: a renderer can name a folder only by having the
// user pick it, never by sending any path it likes. Each pick is good for one use, for a while.
import { resolve } from 'node:path';

export type PickPurpose = 'library-move' | 'export';

export interface PickedFolders {
  remember(purpose: PickPurpose, path: string): void;
  /** True (once) when `path` is a folder the dialog returned for this purpose recently. */
  take(purpose: PickPurpose, path: string): boolean;
}

export function createPickedFolders(options: { ttlMs?: number; now?: () => number } = {}): PickedFolders {
  const ttlMs = options.ttlMs ?? 30 * 60_000;
  const now = options.now ?? Date.now;
  const picks = new Map<string, number>();
  const keyOf = (purpose: PickPurpose, path: string) => `${purpose}\0${resolve(path)}`;
  return {
    remember(purpose, path) {
      picks.set(keyOf(purpose, path), now() + ttlMs);
    },
    take(purpose, path) {
      const key = keyOf(purpose, path);
      const until = picks.get(key);
      picks.delete(key);
      return until !== undefined && until >= now();
    },
  };
}
