import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJsonFileStore } from '../settings/json-file-store.ts';
import { createMemoryStore, type KeyValueStore } from '../settings/store.ts';
import { noCipher, type Cipher } from './cipher.ts';
import { createFakeCipher } from './fake-cipher.ts';
import { keyFingerprint } from './fingerprint.ts';
import { createKeyStore } from './key-store.ts';

const KEY = 'sk-live-4f9c2b7e1d8a6f3c5e0b9d2a7c4e1f8b';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-keystore-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every byte written under dir, as one string, to search for leaks. */
const allBytes = (dir: string): string =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');

const open = (store: KeyValueStore, cipher: Cipher, allowWeak = false, warnings: string[] = []) =>
  createKeyStore({ cipher, store, allowWeakStorage: () => allowWeak, onWarning: (m) => warnings.push(m) });

describe('KeyStore with OS encryption', () => {
  it('stores only ciphertext on disk and reads the key back after a restart', () => {
    const dir = tempDir();
    const cipher = createFakeCipher();
    const keys = open(createJsonFileStore(dir), cipher);
    expect(keys.set(KEY)).toEqual({ configured: true, storage: 'encrypted' });

    const onDisk = allBytes(dir);
    expect(onDisk).toContain('"encrypted"');
    expect(onDisk).not.toContain(KEY);
    expect(onDisk).not.toContain(Buffer.from(KEY).toString('base64').slice(0, 20));

    const reopened = open(createJsonFileStore(dir), cipher);
    expect(reopened.status()).toEqual({ configured: true, storage: 'encrypted' });
    expect(reopened.get()).toBe(KEY);
  });

  it('replaces and removes the key, leaving nothing behind', () => {
    const dir = tempDir();
    const keys = open(createJsonFileStore(dir), createFakeCipher());
    keys.set(KEY);
    const first = keys.fingerprint();
    keys.set('sk-other-key-0123456789');
    expect(keys.get()).toBe('sk-other-key-0123456789');
    expect(keys.fingerprint()).not.toBe(first);
    keys.remove();
    expect(keys.status()).toEqual({ configured: false, storage: 'none' });
    expect(keys.get()).toBeNull();
    expect(keys.fingerprint()).toBeNull();
    expect(allBytes(dir)).not.toContain('apiKey');
  });

  it('reports no key when the keyring changed, keeping the record for a later retry', () => {
    const store = createMemoryStore();
    const cipher = createFakeCipher();
    open(store, cipher).set(KEY);
    cipher.rotate();
    const warnings: string[] = [];
    const reopened = open(store, cipher, false, warnings);
    expect(reopened.status()).toEqual({ configured: false, storage: 'none' });
    expect(warnings.join(' ')).toMatch(/could not be decrypted/);
    expect(warnings.join(' ')).not.toContain(KEY);
    expect(store.get('apiKey')).toBeTruthy();
  });

  it('cannot read an encrypted key in a host without encryption (browser mode)', () => {
    const store = createMemoryStore();
    open(store, createFakeCipher()).set(KEY);
    const warnings: string[] = [];
    expect(open(store, noCipher, false, warnings).status().configured).toBe(false);
    expect(warnings).toHaveLength(1);
  });

  it('never overwrites or deletes a record another host encrypted, even with the weak-storage opt-in', () => {
    const store = createMemoryStore();
    const appCipher = createFakeCipher({ backend: 'gnome_libsecret' });
    open(store, appCipher).set(KEY, 'https://media.example.com/v1');
    const saved = store.get('apiKey');
    for (const other of [noCipher, createFakeCipher({ backend: 'kwallet6' })]) {
      const browser = open(store, other, true);
      expect(browser.set('sk-other-host-key').storage).toBe('session');
      browser.reconcile();
      browser.remove();
      expect(store.get('apiKey')).toEqual(saved);
    }
    expect(open(store, appCipher).get()).toBe(KEY);
  });

  it('falls back to this session when encryption throws', () => {
    const store = createMemoryStore();
    const broken: Cipher = {
      ...createFakeCipher(),
      encrypt: () => {
        throw new Error('keychain locked');
      },
    };
    const keys = open(store, broken);
    expect(keys.set(KEY).storage).toBe('session');
    expect(store.get('apiKey')).toBeUndefined();
  });
});

describe('KeyStore without safe encryption', () => {
  it.each([
    ['basic_text backend (Linux without a keyring)', createFakeCipher({ backend: 'basic_text' })],
    ['no encryption at all', createFakeCipher({ available: false })],
    ['noCipher', noCipher],
  ])('keeps the key for this session only: %s', (_name, cipher) => {
    const dir = tempDir();
    const keys = open(createJsonFileStore(dir), cipher);
    expect(keys.set(KEY)).toEqual({ configured: true, storage: 'session' });
    expect(keys.get()).toBe(KEY);
    expect(allBytes(dir)).not.toContain(KEY);
    expect(open(createJsonFileStore(dir), cipher).status().configured).toBe(false);
  });

  it('stores the key unencrypted only after the opt-in, and says so', () => {
    const dir = tempDir();
    const keys = open(createJsonFileStore(dir), noCipher, true);
    expect(keys.set(KEY)).toEqual({ configured: true, storage: 'plain' });
    expect(allBytes(dir)).toContain(KEY);
    const reopened = open(createJsonFileStore(dir), noCipher, true);
    expect(reopened.status()).toEqual({ configured: true, storage: 'plain' });
    expect(reopened.get()).toBe(KEY);
  });

  it('moves the key between session and plain when the opt-in changes', () => {
    const dir = tempDir();
    let allow = false;
    const keys = createKeyStore({ cipher: noCipher, store: createJsonFileStore(dir), allowWeakStorage: () => allow });
    keys.set(KEY);
    allow = true;
    expect(keys.reconcile().storage).toBe('plain');
    expect(allBytes(dir)).toContain(KEY);
    allow = false;
    expect(keys.reconcile().storage).toBe('session');
    expect(allBytes(dir)).not.toContain(KEY);
    expect(keys.get()).toBe(KEY);
  });

  it('drops a plain copy at start-up when the opt-in was withdrawn', () => {
    const store = createMemoryStore({ apiKey: { storage: 'plain', key: KEY } });
    const keys = open(store, noCipher, false);
    expect(keys.status()).toEqual({ configured: true, storage: 'session' });
    expect(store.get('apiKey')).toBeUndefined();
  });

  it('upgrades a plain copy to encrypted once safe encryption is available', () => {
    const store = createMemoryStore({ apiKey: { storage: 'plain', key: KEY } });
    const cipher = createFakeCipher();
    const keys = open(store, cipher, true);
    expect(keys.status()).toEqual({ configured: true, storage: 'encrypted' });
    expect(JSON.stringify(store.get('apiKey'))).not.toContain(KEY);
    expect(open(store, cipher, true).get()).toBe(KEY);
  });

  it('ignores a garbled record', () => {
    const keys = open(createMemoryStore({ apiKey: { storage: 'plain', key: 42 } }), noCipher, true);
    expect(keys.status()).toEqual({ configured: false, storage: 'none' });
  });
});

describe('KeyStore environment override', () => {
  it('uses the key for this process without writing it anywhere', () => {
    const dir = tempDir();
    const store = createJsonFileStore(dir);
    const keys = createKeyStore({ cipher: createFakeCipher(), store, allowWeakStorage: () => true, override: KEY });
    expect(keys.status()).toEqual({ configured: true, storage: 'session' });
    expect(keys.reconcile().storage).toBe('session');
    expect(keys.get()).toBe(KEY);
    expect(allBytes(dir)).not.toContain(KEY);
  });
});

describe('keyFingerprint', () => {
  it('is a short stable hex digest that differs per key', () => {
    expect(keyFingerprint(KEY)).toMatch(/^[0-9a-f]{16}$/);
    expect(keyFingerprint(KEY)).toBe(keyFingerprint(KEY));
    expect(keyFingerprint(KEY)).not.toBe(keyFingerprint(`${KEY}x`));
    expect(KEY).not.toContain(keyFingerprint(KEY));
  });
});
