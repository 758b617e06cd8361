// Electron's safeStorage as the key store's Cipher. On Linux the backend is reported too, so a
// 'basic_text' fallback (no keyring: a hard-coded key) is treated as no protection at all.
import type { SafeStorage } from 'electron';
import type { Cipher } from '../core/secrets/cipher.ts';

export type SafeStorageLike = Pick<
  SafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
>;

/** Must be created after app 'ready': before it, Linux reports the backend as 'unknown'. */
export function createSafeStorageCipher(safeStorage: SafeStorageLike, platform: NodeJS.Platform): Cipher {
  const backend = (): string => {
    if (platform === 'darwin') return 'keychain';
    if (platform === 'win32') return 'dpapi';
    return safeStorage.getSelectedStorageBackend();
  };
  return {
    // 'unknown' means the keyring was never reached: do not promise encryption on that.
    isEncryptionAvailable: () => safeStorage.isEncryptionAvailable() && backend() !== 'unknown',
    backend,
    encrypt: (plain) => new Uint8Array(safeStorage.encryptString(plain)),
    decrypt: (data) => safeStorage.decryptString(Buffer.from(data)),
  };
}
