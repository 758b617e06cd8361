// The concrete database and API client every account gets: the one place the account layer
// opens a database and builds a client (elsewhere it holds them by type, and names the account by
// db/account-path.ts).
import { existsSync, renameSync } from 'node:fs';
import { createServiceClient, type ServiceClient } from '../api/index.ts';
import { accountDatabasePath } from '../db/account-path.ts';
import { openAccountDb, type AccountDb } from '../db/account-db.ts';
import type { Logger } from '../log/logger.ts';
import type { AccountRef } from './types.ts';

export interface AccountBindings {
  openDatabase(account: AccountRef): AccountDb;
  createClient(options: { baseUrl: string; getApiKey: () => string | null }): ServiceClient;
  closeClient(client: ServiceClient): void;
  checkKey(candidate: { baseUrl: string; key: string }): Promise<unknown>;
  setAsideDatabase(file: string, label: string): void;
}

/** Someone is waiting on the key check: fail fast rather than retry for half a minute. */
const KEY_CHECK = {
  retry: { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 },
  timeouts: { connectMs: 5_000, responseMs: 10_000, requestMs: 15_000 },
};

/** `onReach` hears every request's outcome (connectivity, core/host/service-reach.ts). */
export function appAccountBindings(
  dataDir: string,
  logger: Logger,
  onReach?: (reached: boolean) => void,
): AccountBindings {
  return {
    openDatabase: (account) => openAccountDb(accountDatabasePath(dataDir, account)),
    createClient: ({ baseUrl, getApiKey }) =>
      createServiceClient({ baseUrl, getApiKey, logger, ...(onReach ? { onReach } : {}) }),
    closeClient: (client) => client.close(),
    setAsideDatabase(file, label) {
      // The database with its WAL and shared-memory files, renamed together: nothing is deleted.
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${file}.${label}${suffix}`);
      }
    },
    async checkKey({ baseUrl, key }) {
      const client = createServiceClient({ baseUrl, getApiKey: () => key, logger, ...KEY_CHECK });
      try {
        return await client.listModels();
      } finally {
        client.close();
      }
    },
  };
}
