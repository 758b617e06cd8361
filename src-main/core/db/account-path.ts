// Where one account's database lives: its own folder per (service address, key fingerprint), so
// two keys, or the demo and a real key, never share a cache.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** Structurally the account layer's AccountRef: a fingerprint (a hash of the key), never the key. */
export type AccountDatabaseRef = { baseUrl: string; keyFingerprint: string } | 'demo';

const FINGERPRINT = /^[0-9a-f]{8,64}$/;

/** URL parsing already folds scheme and host case; a trailing slash, query or fragment means nothing here. */
export function normalizeBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl.trim());
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export function accountId(account: AccountDatabaseRef): string {
  if (account === 'demo') return 'demo';
  // Refuse anything that does not look like a fingerprint, so a raw key can never become a folder name.
  if (!FINGERPRINT.test(account.keyFingerprint)) {
    throw new Error('accountDatabasePath needs a key fingerprint (lowercase hex), not a key');
  }
  return createHash('sha256')
    .update(`${normalizeBaseUrl(account.baseUrl)}\n${account.keyFingerprint}`, 'utf8')
    .digest('hex')
    .slice(0, 16);
}

export function accountDatabasePath(dataDir: string, account: AccountDatabaseRef): string {
  return join(dataDir, 'accounts', accountId(account), 'atelier.db');
}
