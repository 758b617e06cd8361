// How the key store encrypts at rest. The shell adapts Electron's safeStorage to this; hosts
// without OS-backed encryption (browser mode, the CLI) use noCipher.

export interface Cipher {
  /** false → keep the key for this session only unless the user opts in to weak storage */
  isEncryptionAvailable(): boolean;
  /** e.g. 'os', 'basic_text' (Linux without a keyring: treat as NOT safe), 'none' */
  backend(): string;
  encrypt(plain: string): Uint8Array;
  decrypt(data: Uint8Array): string;
}

/** Backends that "encrypt" with a key anyone can read, so they protect nothing at rest. */
const UNSAFE_BACKENDS = new Set(['basic_text', 'none']);

/** True only where what we write is really protected by the OS (keychain, DPAPI, a keyring). */
export const encryptsSafely = (cipher: Cipher): boolean =>
  cipher.isEncryptionAvailable() && !UNSAFE_BACKENDS.has(cipher.backend());

const unavailable = (): never => {
  throw new Error('No encryption is available in this host.');
};

export const noCipher: Cipher = {
  isEncryptionAvailable: () => false,
  backend: () => 'none',
  encrypt: unavailable,
  decrypt: unavailable,
};
