import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import type { EventChannel } from '../../contract/ipc.ts';
import { createServiceClient, type ServiceClient } from '../api/service-client.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { createEventBus } from '../events.ts';
import { silentLogger } from '../log/index.ts';
import { createAccountSync, type SessionProvider } from './account-sync.ts';

let emulator: RunningEmulator;
let client: ServiceClient;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 3 });
  client = createServiceClient({
    baseUrl: emulator.url,
    getApiKey: () => 'demo-key',
    logger: silentLogger(),
    timing: { sleep: async () => {} },
  });
});
afterAll(async () => {
  client.close();
  await emulator.close();
});

type Session = { db: ReturnType<typeof openMemoryCache>; client: unknown };

function fakeAccounts(session: Session | null) {
  const opened = new Set<(s: Session) => void | Promise<void>>();
  const closing = new Set<(s: Session) => void | Promise<void>>();
  const provider: SessionProvider = {
    requireSession: () => {
      if (!session) throw new Error('no account');
      return session;
    },
    onSessionOpened: (l) => (opened.add(l), () => opened.delete(l)),
    onSessionClosing: (l) => (closing.add(l), () => closing.delete(l)),
  };
  return {
    provider,
    open: async (s: Session) => {
      for (const l of opened) await l(s);
    },
    close: async (s: Session) => {
      for (const l of closing) await l(s);
    },
  };
}

describe('createAccountSync', () => {
  it('refreshes in the background when an account opens and keeps one syncer per account', async () => {
    const session = { db: openMemoryCache(), client };
    const accounts = fakeAccounts(session);
    const events = createEventBus();
    const seen: EventChannel[] = [];
    events.subscribe((event) => seen.push(event));
    const sync = createAccountSync({ accounts: accounts.provider, events, logWarning: () => {} });
    await accounts.open(session);
    expect(sync.syncer().status().running).toBe(true);
    await sync.syncer().refresh(); // joins the running refresh
    expect(sync.syncer()).toBe(sync.syncer());
    expect(sync.cache().models.list().length).toBeGreaterThan(0);
    expect(seen).toContain('sync:changed');

    await accounts.close(session);
    await expect(sync.syncer().refresh()).rejects.toThrow(/closing/);
    sync.dispose();
    session.db.close();
  });

  it('says plainly when the account cannot refresh, and logs a failed first refresh', async () => {
    const standIn = { db: openMemoryCache(), client: { listModels: async () => [] } };
    const warnings: string[] = [];
    const accounts = fakeAccounts(standIn);
    const sync = createAccountSync({
      accounts: accounts.provider,
      events: createEventBus(),
      logWarning: (m) => warnings.push(m),
    });
    await accounts.open(standIn);
    expect(() => sync.syncer()).toThrow(/cannot refresh/);
    expect(sync.cache().assets.counts().total).toBe(0); // reading the cache still works

    const failing = { db: openMemoryCache(), client };
    emulator.control.setFaults({ rules: [{ path: '/presets', serverError: { count: 100 } }] });
    const second = fakeAccounts(failing);
    const sync2 = createAccountSync({
      accounts: second.provider,
      events: createEventBus(),
      logWarning: (m) => warnings.push(m),
    });
    await second.open(failing);
    await sync2
      .syncer()
      .refresh()
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
    emulator.control.clearFaults();
    expect(warnings).toEqual(['The first refresh of the account failed']);
    expect(sync2.syncer().status().lastError?.code).toBe('server');
    sync.dispose();
    sync2.dispose();
  });
});
