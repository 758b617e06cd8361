// A Cipher for tests and hosts without Electron: real AES-256-GCM under a key that lives only in
// this process, so "what is on disk" tests are honest. Not for production: the key dies with the process.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Cipher } from './cipher.ts';

export interface FakeCipher extends Cipher {
  /** Simulates the OS keyring changing: everything encrypted before can no longer be read. */
  rotate(): void;
}

export function createFakeCipher(options: { backend?: string; available?: boolean } = {}): FakeCipher {
  let secret = randomBytes(32);
  return {
    isEncryptionAvailable: () => options.available ?? true,
    backend: () => options.backend ?? 'os',
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt(data) {
      const bytes = Buffer.from(data);
      const decipher = createDecipheriv('aes-256-gcm', secret, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
    rotate() {
      secret = randomBytes(32);
    },
  };
}
