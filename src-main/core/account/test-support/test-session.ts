// A real account session for tests that drive one domain without the account manager: an
// in-memory cache and an API client of the given service (the emulator), no retry sleeps.
import { createServiceClient } from '../../api/service-client.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { silentLogger } from '../../log/index.ts';
import { DEMO_AREA, type AccountSession } from '../types.ts';

export interface TestSession extends AccountSession {
  /** Closes the cache and the client. */
  close(): void;
}

export function openTestSession(
  baseUrl: string,
  options: { mode?: 'demo' | 'service'; apiKey?: string } = {},
): TestSession {
  const mode = options.mode ?? 'demo';
  const apiKey = options.apiKey ?? 'demo-key';
  const cache = openMemoryCache();
  const client = createServiceClient({
    baseUrl,
    getApiKey: () => apiKey,
    logger: silentLogger(),
    timing: { sleep: async () => {} },
  });
  return {
    mode,
    cache,
    client,
    baseUrl,
    area: mode === 'demo' ? DEMO_AREA : '',
    close() {
      cache.close();
      client.close();
    },
  };
}
