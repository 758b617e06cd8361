import { describe, expect, it } from 'vitest';
import { encryptsSafely } from '../core/secrets/cipher.ts';
import { createSafeStorageCipher, type SafeStorageLike } from './safe-storage-cipher.ts';

/** Behaves like safeStorage: a reversible transform, availability and backend as configured. */
function fakeSafeStorage(
  available: boolean,
  backend: ReturnType<SafeStorageLike['getSelectedStorageBackend']>,
): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (plain) => Buffer.from(plain, 'utf8').reverse(),
    decryptString: (data) => Buffer.from(data).reverse().toString('utf8'),
  };
}

describe('safeStorage cipher', () => {
  it('round-trips through safeStorage and returns plain bytes', () => {
    const cipher = createSafeStorageCipher(fakeSafeStorage(true, 'gnome_libsecret'), 'linux');
    const encrypted = cipher.encrypt('sk-secret');
    expect(encrypted).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(encrypted).toString('utf8')).not.toContain('sk-secret');
    expect(cipher.decrypt(encrypted)).toBe('sk-secret');
  });

  it('reports the Linux keyring backend, so basic_text counts as unsafe', () => {
    expect(encryptsSafely(createSafeStorageCipher(fakeSafeStorage(true, 'gnome_libsecret'), 'linux'))).toBe(true);
    expect(encryptsSafely(createSafeStorageCipher(fakeSafeStorage(true, 'kwallet6'), 'linux'))).toBe(true);
    const basic = createSafeStorageCipher(fakeSafeStorage(true, 'basic_text'), 'linux');
    expect(basic.backend()).toBe('basic_text');
    expect(encryptsSafely(basic)).toBe(false);
  });

  it('does not promise encryption while the Linux backend is unknown', () => {
    expect(createSafeStorageCipher(fakeSafeStorage(true, 'unknown'), 'linux').isEncryptionAvailable()).toBe(false);
  });

  it('names the OS store on macOS and Windows without asking for a Linux backend', () => {
    const noLinux = {
      ...fakeSafeStorage(true, 'basic_text'),
      getSelectedStorageBackend: () => {
        throw new Error('Linux only');
      },
    };
    expect(createSafeStorageCipher(noLinux, 'darwin').backend()).toBe('keychain');
    expect(encryptsSafely(createSafeStorageCipher(noLinux, 'win32'))).toBe(true);
    expect(encryptsSafely(createSafeStorageCipher(fakeSafeStorage(false, 'unknown'), 'darwin'))).toBe(false);
  });
});
