// The key check with the real client against the emulator: what the user is told in each case.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import { silentLogger } from '../log/logger.ts';
import { appAccountBindings } from './bindings.ts';
import { verifyKey } from './verify-key.ts';

const GOOD = 'sk-verify-good-0123456789';
const logger = silentLogger();
const { checkKey } = appAccountBindings('/unused', logger);

async function outcome(baseUrl: string, key: string): Promise<ErrorInfo | 'ok'> {
  try {
    await verifyKey({ baseUrl, key, checkKey, logger });
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.info;
    throw error;
  }
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('verifyKey with the real client', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKeys: [GOOD] });
  });
  afterAll(() => emulator.close());

  it('accepts a key the service accepts', async () => {
    expect(await outcome(emulator.url, GOOD)).toBe('ok');
  });

  it('says the service refused a wrong key, without repeating it', async () => {
    const info = await outcome(emulator.url, 'sk-verify-wrong-9876543210');
    expect(info).toMatchObject({ code: 'auth', field: 'key', httpStatus: 401 });
    expect(JSON.stringify(info)).not.toContain('sk-verify-wrong');
  });

  it('says the service could not be reached, and quickly', async () => {
    const started = Date.now();
    const info = await outcome(`http://127.0.0.1:${await closedPort()}`, GOOD);
    expect(info).toMatchObject({ code: 'network' });
    expect((info as ErrorInfo).message).toMatch(/Could not reach the service/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('points at the address when it is not the service', async () => {
    const info = await outcome(`${emulator.url}/not-the-api`, GOOD);
    expect(info).toMatchObject({ field: 'baseUrl' });
    expect((info as ErrorInfo).message).toMatch(/did not answer like the media service/);
  });
});
