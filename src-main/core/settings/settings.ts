// Typed settings over a KeyValueStore: every field validated on write and on read, so a
// hand-edited or older file can never crash the app (a bad value falls back to its default).
import { join } from 'node:path';
import * as v from 'valibot';
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import {
  DOWNLOAD_CONCURRENCY,
  PLACEHOLDER_BASE_URL,
  settingsFieldSchemas,
  type SettingsInfo,
} from '../../contract/ipc/settings.ts';
import { creditCapsSchema, type CreditCapsInfo } from '../../contract/ipc/budget.ts';
import type { KeyValueStore } from './store.ts';

export type AccountMode = 'none' | 'demo' | 'service';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

const whole = v.pipe(v.number(), v.integer());
const windowStateSchema = v.nullable(
  v.object({
    x: v.optional(whole),
    y: v.optional(whole),
    width: v.pipe(whole, v.minValue(200), v.maxValue(100_000)),
    height: v.pipe(whole, v.minValue(200), v.maxValue(100_000)),
    maximized: v.boolean(),
  }),
);

/** Every stored setting: the renderer's fields plus the ones only main writes. */
const settingsSchemas = {
  ...settingsFieldSchemas,
  /** The last account choice, so demo mode survives a restart. Changed through the account layer. */
  mode: v.picklist(['none', 'demo', 'service'], 'mode must be none, demo or service.'),
  /** Written by the shell when the window moves or resizes. */
  windowState: windowStateSchema,
  /**
   * Each account's credit caps, by its id (AccountInfo.id: a hash, or 'demo'); an account without an
   * entry has none. Changed through budget:set-caps (core/budgets/credit-caps.ts), never settings:update.
   */
  creditCaps: v.record(
    v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
    creditCapsSchema,
    'creditCaps must map account ids to { daily, monthly }.',
  ),
};

export type SettingsKey = keyof typeof settingsSchemas;
export type SettingsValues = SettingsInfo & {
  mode: AccountMode;
  windowState: WindowState | null;
  creditCaps: Record<string, CreditCapsInfo>;
};

export function defaultSettings(dataDir: string): SettingsValues {
  return {
    baseUrl: PLACEHOLDER_BASE_URL,
    libraryDir: join(dataDir, 'Library'),
    autoDownload: true,
    notifications: true,
    downloadConcurrency: DOWNLOAD_CONCURRENCY.default,
    theme: 'system',
    closeToTray: true,
    closeToTrayExplained: false,
    allowWeakKeyStorage: false,
    pollingPaused: false,
    openAtLogin: false,
    mode: 'none',
    windowState: null,
    creditCaps: {},
  };
}

export type SettingsListener = (values: SettingsValues, changed: readonly SettingsKey[]) => void;

export interface Settings {
  get(): SettingsValues;
  /** Validates every given field first; writes nothing if one is refused. */
  update(patch: Partial<SettingsValues>): SettingsValues;
  /** Called after a write that changed at least one value. Returns the unsubscribe function. */
  onChange(listener: SettingsListener): () => void;
}

export interface SettingsOptions {
  store: KeyValueStore;
  dataDir: string;
  /** Told about stored values that were ignored (hand edits, older versions). */
  onInvalidStored?: (field: string) => void;
  onListenerError?: (error: unknown) => void;
}

const STORE_KEY = 'settings';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isSettingsKey = (key: string): key is SettingsKey => Object.hasOwn(settingsSchemas, key);

const sameValue = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Picks what the renderer may see (window geometry and the account mode stay in main). */
export function toSettingsInfo(values: SettingsValues): SettingsInfo {
  const info: Record<string, unknown> = {};
  for (const key of Object.keys(settingsFieldSchemas)) info[key] = values[key as keyof SettingsInfo];
  return info as SettingsInfo;
}

export function createSettings(options: SettingsOptions): Settings {
  const defaults = defaultSettings(options.dataDir);
  const listeners = new Set<SettingsListener>();
  let cached: SettingsValues | null = null;

  // Only explicitly chosen values are stored, so a better default in a later version reaches
  // users who never touched that setting. Unknown keys (from a newer version) are kept.
  const readStored = (): Record<string, unknown> => {
    const raw = options.store.get(STORE_KEY);
    return isRecord(raw) ? raw : {};
  };

  const load = (): SettingsValues => {
    const stored = readStored();
    const values: Record<string, unknown> = { ...defaults };
    for (const key of Object.keys(settingsSchemas) as SettingsKey[]) {
      if (!Object.hasOwn(stored, key)) continue;
      const parsed = v.safeParse(settingsSchemas[key], stored[key]);
      if (parsed.success) values[key] = parsed.output;
      else options.onInvalidStored?.(key);
    }
    return values as SettingsValues;
  };

  const get = (): SettingsValues => {
    cached ??= load();
    return structuredClone(cached);
  };

  const validate = (patch: Partial<SettingsValues>): Partial<SettingsValues> => {
    if (!isRecord(patch)) {
      throw new AppError({ code: 'invalid_argument', message: 'Settings must be given as an object.' });
    }
    const problems: { field: string; message: string }[] = [];
    const clean: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (!isSettingsKey(key)) {
        problems.push({ field: key, message: `There is no setting called ${key.slice(0, 60)}.` });
        continue;
      }
      const parsed = v.safeParse(settingsSchemas[key], value);
      if (parsed.success) clean[key] = parsed.output;
      else problems.push({ field: key, message: parsed.issues[0]?.message ?? `${key} has an invalid value.` });
    }
    const first = problems[0];
    if (first) {
      const info: ErrorInfo = { code: 'invalid_argument', message: first.message, field: first.field };
      if (problems.length > 1) info.fields = problems;
      throw new AppError(info);
    }
    return clean as Partial<SettingsValues>;
  };

  return {
    get,
    update(patch) {
      const clean = validate(patch);
      const current = get();
      const changed = (Object.keys(clean) as SettingsKey[]).filter((key) => !sameValue(current[key], clean[key]));
      if (changed.length === 0) return current;
      // A copy: an adapter may hand out its live object (electron-store does).
      const stored = { ...readStored() };
      for (const key of changed) stored[key] = clean[key];
      options.store.set(STORE_KEY, stored);
      cached = { ...current, ...clean };
      const snapshot = get();
      for (const listener of listeners) {
        try {
          listener(structuredClone(snapshot), changed);
        } catch (error) {
          options.onListenerError?.(error);
        }
      }
      return snapshot;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
