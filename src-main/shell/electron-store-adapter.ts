// electron-store as the core's KeyValueStore (settings and the encrypted key). Keys are literal,
// like the conf store browser mode uses, so both hosts read the same settings file, and a file
// that is not valid JSON is set aside the same way (core/settings/store.ts).
import Store from 'electron-store';
import { recoverCorruptJsonStore, type CorruptFileOptions, type KeyValueStore } from '../core/settings/store.ts';

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

/** `<dataDir>/settings.json`, owner-only; an unreadable one is set aside and `onSetAside` told. */
export function openSettingsStore(dataDir: string, options: CorruptFileOptions = {}): KeyValueStore {
  const name = 'settings';
  const open = (): KeyValueStore =>
    adaptElectronStore(
      new Store<Record<string, unknown>>({
        name,
        cwd: dataDir,
        accessPropertiesByDotNotation: false,
        configFileMode: 0o600,
      }),
    );
  return recoverCorruptJsonStore(dataDir, name, open, options);
}
