// Where the API key lives in main: encrypted at rest when the OS can really protect it, else in
// memory for this session only, unless the user explicitly accepted unencrypted storage.
// Only status() ever leaves main; get() is for the API client.
import { AppError } from '../../contract/errors.ts';
import type { KeyValueStore } from '../settings/store.ts';
import { encryptsSafely, type Cipher } from './cipher.ts';
import { keyFingerprint } from './fingerprint.ts';

export type KeyStorage = 'encrypted' | 'session' | 'plain' | 'none';

export interface KeyStatus {
  configured: boolean;
  storage: KeyStorage;
}

export interface KeyStore {
  status(): KeyStatus;
  /** The key itself: main only (the API client reads it at call time). */
  get(): string | null;
  /** Short SHA-256 prefix naming the account database; null without a key. */
  fingerprint(): string | null;
  /**
   * The service address the key was entered for: the key is sent nowhere else. Null for a key
   * from the environment (its host chose the address) and for records older than the pairing.
   */
  pairedBaseUrl(): string | null;
  /** Sets or replaces the key, stored as safely as this host allows, paired with its address. */
  set(key: string, baseUrl?: string | null): KeyStatus;
  remove(): void;
  /** Moves the key to where the current policy says (after allowWeakKeyStorage or the OS changed). */
  reconcile(): KeyStatus;
}

export interface KeyStoreOptions {
  cipher: Cipher;
  store: KeyValueStore;
  /** The user's opt-in to unencrypted storage where no safe encryption exists. */
  allowWeakStorage: () => boolean;
  /** A key from the environment (CLI, tests): used for this process, never written anywhere. */
  override?: string | null;
  /**
   * The address in the settings now: a saved key from before the pairing existed is paired with it
   * once (written back), so from then on it too goes nowhere else.
   */
  currentBaseUrl?: () => string;
  /** Problems worth a log line (never given the key). */
  onWarning?: (message: string) => void;
}

/**
 * What is written under STORE_KEY. 'plain' exists only after an explicit opt-in. `baseUrl` is the
 * address the key was entered for (not secret; absent in records written before the pairing).
 */
type StoredKey = ({ storage: 'encrypted'; backend: string; data: string } | { storage: 'plain'; key: string }) & {
  baseUrl?: string;
};

const STORE_KEY = 'apiKey';

const readStored = (value: unknown): StoredKey | null => {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const paired = typeof record.baseUrl === 'string' ? { baseUrl: record.baseUrl } : {};
  if (record.storage === 'encrypted' && typeof record.data === 'string' && typeof record.backend === 'string') {
    return { storage: 'encrypted', backend: record.backend, data: record.data, ...paired };
  }
  if (record.storage === 'plain' && typeof record.key === 'string' && record.key.length > 0) {
    return { storage: 'plain', key: record.key, ...paired };
  }
  return null;
};

export function createKeyStore(options: KeyStoreOptions): KeyStore {
  const { cipher, store } = options;
  const warn = options.onWarning ?? (() => {});
  let current: { key: string; storage: Exclude<KeyStorage, 'none'>; baseUrl: string | null } | null = null;
  let fromEnvironment = Boolean(options.override);
  /**
   * The saved record belongs to another host sharing this data folder (the app's keychain when
   * this is browser mode or the CLI): it is never overwritten or deleted from here, and keys set
   * here stay for the session. A record of this host's own backend that no longer decrypts (the
   * keyring changed) is not foreign: entering the key again replaces it.
   */
  let foreign = false;

  /** Writes the key per policy and says where it ended up. */
  const persist = (key: string, baseUrl: string | null): Exclude<KeyStorage, 'none'> => {
    if (foreign) return 'session';
    const paired = baseUrl ? { baseUrl } : {};
    if (encryptsSafely(cipher)) {
      try {
        const data = Buffer.from(cipher.encrypt(key)).toString('base64');
        store.set(STORE_KEY, { storage: 'encrypted', backend: cipher.backend(), data, ...paired } satisfies StoredKey);
        return 'encrypted';
      } catch {
        warn('Encrypting the API key failed; it is kept for this session only.');
      }
    } else if (options.allowWeakStorage()) {
      store.set(STORE_KEY, { storage: 'plain', key, ...paired } satisfies StoredKey);
      return 'plain';
    }
    // Never leave an older copy behind: it would come back after a restart.
    store.delete(STORE_KEY);
    return 'session';
  };

  const load = (): void => {
    const stored = readStored(store.get(STORE_KEY));
    foreign = stored?.storage === 'encrypted' && (!encryptsSafely(cipher) || stored.backend !== cipher.backend());
    if (options.override) {
      current = { key: options.override, storage: 'session', baseUrl: null };
      return;
    }
    if (!stored) return;
    let baseUrl = stored.baseUrl ?? null;
    if (baseUrl === null && !foreign && options.currentBaseUrl) {
      baseUrl = options.currentBaseUrl();
      store.set(STORE_KEY, { ...stored, baseUrl } satisfies StoredKey);
    }
    if (stored.storage === 'encrypted') {
      if (foreign) {
        warn('A saved API key exists but this host cannot decrypt it; enter the key again to use it here.');
        return;
      }
      try {
        current = { key: cipher.decrypt(Buffer.from(stored.data, 'base64')), storage: 'encrypted', baseUrl };
      } catch {
        // Kept on disk: the keyring may come back (a locked session); a new key overwrites it.
        warn('The saved API key could not be decrypted (the system keyring may have changed); enter it again.');
      }
      return;
    }
    // A plain copy is upgraded when safe encryption appeared, and dropped if the opt-in was withdrawn.
    current = { key: stored.key, storage: 'plain', baseUrl };
    if (encryptsSafely(cipher) || !options.allowWeakStorage()) current.storage = persist(stored.key, baseUrl);
  };

  const status = (): KeyStatus => ({ configured: current !== null, storage: current?.storage ?? 'none' });

  load();

  return {
    status,
    get: () => current?.key ?? null,
    fingerprint: () => (current ? keyFingerprint(current.key) : null),
    pairedBaseUrl: () => current?.baseUrl ?? null,
    set(key, baseUrl = null) {
      if (typeof key !== 'string' || key.length === 0) {
        throw new AppError({ code: 'invalid_argument', message: 'Enter an API key.', field: 'key' });
      }
      current = { key, storage: persist(key, baseUrl), baseUrl };
      fromEnvironment = false;
      return status();
    },
    remove() {
      if (!foreign) store.delete(STORE_KEY);
      current = null;
      fromEnvironment = false;
    },
    reconcile() {
      if (current && !fromEnvironment && current.storage !== 'encrypted') {
        current.storage = persist(current.key, current.baseUrl);
      }
      return status();
    },
  };
}
