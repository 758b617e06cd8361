// The CLI reads the app's own settings file, but some choices hold for one run only: a
// --base-url (or ATELIER_BASE_URL), and auto-download off outside `watch` (a CLI command
// downloads what it is asked to with --download). This store shows those values to settings and
// never writes them to disk; every other change is saved as usual.
import type { KeyValueStore } from '../core/settings/store.ts';

const SETTINGS_KEY = 'settings';

export interface RunOverrides {
  baseUrl?: string;
  autoDownload?: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function withRunOverrides(inner: KeyValueStore, overrides: RunOverrides): KeyValueStore {
  const entries = Object.entries(overrides).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return inner;
  return {
    get(key) {
      const value = inner.get(key);
      if (key !== SETTINGS_KEY) return value;
      return { ...(isRecord(value) ? value : {}), ...Object.fromEntries(entries) };
    },
    set(key, value) {
      if (key !== SETTINGS_KEY || !isRecord(value)) return inner.set(key, value);
      // What the user saved in the app stays as it was for the overridden fields.
      const saved = inner.get(SETTINGS_KEY);
      const next: Record<string, unknown> = { ...value };
      for (const [name] of entries) {
        if (isRecord(saved) && Object.hasOwn(saved, name)) next[name] = saved[name];
        else delete next[name];
      }
      inner.set(key, next);
    },
    delete: (key) => inner.delete(key),
  };
}
