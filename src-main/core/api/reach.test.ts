// Connectivity from real outcomes: every attempt tells onReach whether the service answered.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../../emulator/index.ts';
import { silentLogger } from '../log/logger.ts';
import { createServiceClient } from './service-client.ts';

function clientFor(url: string, key: string, seen: boolean[]) {
  return createServiceClient({
    baseUrl: url,
    getApiKey: () => key,
    logger: silentLogger(),
    retry: { maxAttempts: 1 },
    onReach: (reached) => seen.push(reached),
  });
}

describe('onReach', () => {
  it('says unreachable when a request to a stopped service fails, reachable when one succeeds', async () => {
    const emulator = await startEmulator({ port: 0 });
    const seen: boolean[] = [];
    const client = clientFor(emulator.url, 'demo-key', seen);
    try {
      await client.listModels();
      expect(seen).toEqual([true]);
      await emulator.close();
      await expect(client.listModels()).rejects.toMatchObject({ info: { code: 'network' } });
      expect(seen).toEqual([true, false]);
    } finally {
      client.close();
    }
  });

  it('counts an error answer as reached (the service is there, it said no) and a missing key as nothing', async () => {
    const emulator = await startEmulator({ port: 0 });
    const seen: boolean[] = [];
    const client = clientFor(emulator.url, 'wrong-key', seen);
    const keyless = clientFor(emulator.url, '', seen);
    try {
      await expect(client.listModels()).rejects.toMatchObject({ info: { code: 'auth' } });
      await expect(keyless.listModels()).rejects.toMatchObject({ info: { code: 'auth' } });
      expect(seen).toEqual([true]);
    } finally {
      client.close();
      keyless.close();
      await emulator.close();
    }
  });
});
