// A short, stable, one-way name for an API key: picks the account database without storing the key.
import { createHash } from 'node:crypto';

/** First 16 hex digits (64 bits) of SHA-256: enough to keep accounts apart, useless to recover the key. */
export const keyFingerprint = (key: string): string =>
  createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 16);
