// electron-store as the core's KeyValueStore (settings and the encrypted key). Keys are literal,
// like the conf store browser mode uses, so both hosts read the same settings file.
import type { KeyValueStore } from '../core/settings/store.ts';

/** The three calls of an electron-store instance we use. */
export interface ElectronStoreLike {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export function adaptElectronStore(store: ElectronStoreLike): KeyValueStore {
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
  };
}
