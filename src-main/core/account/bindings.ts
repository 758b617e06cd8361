// The concrete database and API client every account gets: the one place the account layer
// meets core/db and core/api.
import { createServiceClient, type ServiceClient } from '../api/index.ts';
import { accountDatabasePath } from '../db/account-path.ts';
import { openDatabase, type SqliteDatabase } from '../db/database.ts';
import type { Logger } from '../log/logger.ts';
import type { AccountRef } from './types.ts';

export type AccountDatabase = SqliteDatabase;
export type AccountClient = ServiceClient;

export interface AccountBindings {
  openDatabase(account: AccountRef): AccountDatabase;
  createClient(options: { baseUrl: string; getApiKey: () => string | null }): AccountClient;
  closeClient(client: AccountClient): void;
  checkKey(candidate: { baseUrl: string; key: string }): Promise<unknown>;
}

/** Someone is waiting on the key check: fail fast rather than retry for half a minute. */
const KEY_CHECK = {
  retry: { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 },
  timeouts: { connectMs: 5_000, responseMs: 10_000, requestMs: 15_000 },
};

export function appAccountBindings(dataDir: string, logger: Logger): AccountBindings {
  return {
    openDatabase: (account) => openDatabase(accountDatabasePath(dataDir, account)),
    createClient: ({ baseUrl, getApiKey }) => createServiceClient({ baseUrl, getApiKey, logger }),
    closeClient: (client) => client.close(),
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
