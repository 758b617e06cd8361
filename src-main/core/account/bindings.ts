// The concrete database and API client every account gets: the one place the account layer
// meets core/db and core/api. The client is a STAND-IN until core/api lands: it can only make
// the key-check request.
import { AppError } from '../../contract/errors.ts';
import { accountDatabasePath } from '../db/account-path.ts';
import { openDatabase, type SqliteDatabase } from '../db/database.ts';
import type { AccountRef } from './types.ts';

export type AccountDatabase = SqliteDatabase;

export interface AccountClient {
  readonly baseUrl: string;
  /** GET /models: the cheapest authenticated request, used to check a key. */
  listModels(): Promise<unknown>;
}

export interface AccountBindings {
  openDatabase(account: AccountRef): AccountDatabase;
  createClient(options: { baseUrl: string; getApiKey: () => string | null }): AccountClient;
  probe(client: AccountClient): Promise<unknown>;
}

export function appAccountBindings(dataDir: string): AccountBindings {
  return {
    openDatabase: (account) => openDatabase(accountDatabasePath(dataDir, account)),
    createClient({ baseUrl, getApiKey }) {
      return {
        baseUrl,
        async listModels() {
          const key = getApiKey();
          if (!key) throw new AppError({ code: 'auth', message: 'No API key is set.' });
          let response: Response;
          try {
            response = await fetch(`${baseUrl}/models`, {
              headers: { Authorization: `Bearer ${key}`, 'API-Version': '1', Accept: 'application/json' },
              signal: AbortSignal.timeout(15_000),
            });
          } catch {
            throw new AppError({ code: 'network', message: `Could not reach ${baseUrl}.` });
          }
          const httpStatus = response.status;
          if (httpStatus === 401 || httpStatus === 403)
            throw new AppError({ code: 'auth', message: 'Unauthorized.', httpStatus });
          if (!response.ok)
            throw new AppError({
              code: httpStatus >= 500 ? 'server' : 'not_found',
              message: `HTTP ${httpStatus}`,
              httpStatus,
            });
          const body = (await response.json().catch(() => null)) as { status?: unknown; result?: unknown } | null;
          if (body?.status !== 'OK')
            throw new AppError({ code: 'malformed_response', message: 'Not the service envelope.' });
          return body.result;
        },
      };
    },
    probe: (client) => client.listModels(),
  };
}
