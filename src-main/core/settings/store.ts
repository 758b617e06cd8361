// The small key-value interface settings and the key store persist through: the settings file
// (json-file-store.ts) in every host, a memory store in tests.
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';

export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** Volatile store for tests and hosts that must not write to disk. */
export function createMemoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
  const values = new Map<string, unknown>(Object.entries(structuredClone(initial)));
  return {
    get: (key) => structuredClone(values.get(key)),
    set: (key, value) => void values.set(key, structuredClone(value)),
    delete: (key) => void values.delete(key),
  };
}

const isSyntaxError = (error: unknown): boolean => error instanceof Error && error.name === 'SyntaxError';

export interface CorruptFileOptions {
  /** Told once, with where the unreadable file was moved. */
  onSetAside?: (movedTo: string) => void;
}

/**
 * Guards a JSON-file store `<dir>/<name>.json` (json-file-store.ts): a file
 * that is not valid JSON (a bad hand edit, a write cut short) is moved aside as
 * `<name>.corrupt-<time>.json` and the store starts empty, so the app still starts and the
 * user's text is not lost. `open` makes the store (once more when opening met the bad file).
 */
export function recoverCorruptJsonStore(
  dir: string,
  name: string,
  open: () => KeyValueStore,
  options: CorruptFileOptions = {},
): KeyValueStore {
  const setAside = (): void => {
    const path = join(dir, `${name}.json`);
    if (!existsSync(path)) return;
    const movedTo = join(dir, `${name}.corrupt-${Date.now()}.json`);
    renameSync(path, movedTo);
    options.onSetAside?.(movedTo);
  };
  const guarded = <T>(action: () => T): T => {
    try {
      return action();
    } catch (error) {
      if (!isSyntaxError(error)) throw error;
      setAside();
      return action();
    }
  };
  const store = guarded(open);
  return {
    get: (key) => guarded(() => store.get(key)),
    set: (key, value) => guarded(() => store.set(key, value)),
    delete: (key) => guarded(() => store.delete(key)),
  };
}
