// The CLI reads the app's own settings file, but a --base-url (or ATELIER_BASE_URL) applies to
// this run only: this store shows the override to settings and never writes it to disk.
import type { KeyValueStore } from '../core/settings/store.ts';

const SETTINGS_KEY = 'settings';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function withBaseUrlOverride(inner: KeyValueStore, baseUrl: string | null): KeyValueStore {
  if (baseUrl === null) return inner;
  return {
    get(key) {
      const value = inner.get(key);
      if (key !== SETTINGS_KEY) return value;
      return { ...(isRecord(value) ? value : {}), baseUrl };
    },
    set(key, value) {
      if (key !== SETTINGS_KEY || !isRecord(value)) return inner.set(key, value);
      // Whatever else changed is saved; the saved address stays what the user chose in the app.
      const saved = inner.get(SETTINGS_KEY);
      const { baseUrl: _ignored, ...rest } = value;
      const next: Record<string, unknown> = { ...rest };
      if (isRecord(saved) && Object.hasOwn(saved, 'baseUrl')) next['baseUrl'] = saved['baseUrl'];
      inner.set(key, next);
    },
    delete: (key) => inner.delete(key),
  };
}
