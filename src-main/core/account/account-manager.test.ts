import { describe, expect, it } from 'vitest';
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import type { AccountInfo } from '../../contract/ipc/app.ts';
import { createServiceClient, type ServiceClient } from '../api/service-client.ts';
import type { AccountDb } from '../db/account-db.ts';
import { accountId } from '../db/account-path.ts';
import { openMemoryCache } from '../db/test-support/test-cache.ts';
import { createEventBus } from '../events.ts';
import { silentLogger } from '../log/index.ts';
import { noCipher, type Cipher } from '../secrets/cipher.ts';
import { createFakeCipher } from '../secrets/fake-cipher.ts';
import { keyFingerprint } from '../secrets/fingerprint.ts';
import { createKeyStore } from '../secrets/key-store.ts';
import { createSettings } from '../settings/settings.ts';
import { createMemoryStore, type KeyValueStore } from '../settings/store.ts';
import { createAccountManager } from './account-manager.ts';
import type { AccountRef, DemoService } from './types.ts';

// Real caches (in memory) and real clients (no request is made), with what the manager did with them.
interface OpenedDb {
  ref: AccountRef;
  cache: AccountDb;
}
const isClosed = (db: OpenedDb): boolean => !db.cache.sqlite.open;

/** What each client was given by the manager: the key it would send now, and whether it was closed. */
const clients = new Map<ServiceClient, { getApiKey: () => string | null; closed: boolean }>();
const keyOf = (client: ServiceClient): string | null => clients.get(client)!.getApiKey();
const clientClosed = (client: ServiceClient): boolean => clients.get(client)!.closed;

const BASE = 'https://media.example.com/v1';
const KEY_A = 'sk-alpha-0123456789abcdef';
const KEY_B = 'sk-bravo-fedcba9876543210';

function setup(
  options: { store?: KeyValueStore; cipher?: Cipher; demo?: DemoService | null; validKeys?: string[] } = {},
) {
  const store = options.store ?? createMemoryStore();
  const settings = createSettings({ store, dataDir: '/data' });
  if (settings.get().baseUrl !== BASE) settings.update({ baseUrl: BASE });
  const keyStore = createKeyStore({
    cipher: options.cipher ?? createFakeCipher(),
    store,
    allowWeakStorage: () => settings.get().allowWeakKeyStorage,
  });
  const events = createEventBus();
  const announced: AccountInfo[] = [];
  events.subscribe((event, payload) => {
    if (event === 'account:changed') announced.push(payload as AccountInfo);
  });
  const dbs: OpenedDb[] = [];
  const demoCalls = { starts: 0, stops: 0 };
  const demo: DemoService = {
    async start() {
      demoCalls.starts += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { baseUrl: 'http://127.0.0.1:4999', apiKey: 'demo-key' };
    },
    async stop() {
      demoCalls.stops += 1;
    },
  };
  const valid = new Set(options.validKeys ?? [KEY_A, KEY_B]);
  const warnings: string[] = [];
  let failOpen: ((ref: AccountRef) => boolean) | null = null;
  const manager = createAccountManager({
    settings,
    keyStore,
    ...(options.demo === null ? {} : { demo: options.demo ?? demo }),
    openDatabase(ref) {
      if (failOpen?.(ref)) throw new AppError({ code: 'internal', message: 'database from a newer app' });
      const cache = openMemoryCache();
      dbs.push({ ref, cache });
      return cache;
    },
    createClient({ baseUrl, getApiKey }) {
      const client = createServiceClient({ baseUrl, getApiKey, logger: silentLogger() });
      clients.set(client, { getApiKey, closed: false });
      return client;
    },
    closeClient(client) {
      client.close();
      clients.get(client)!.closed = true;
    },
    async checkKey({ baseUrl, key }) {
      if (baseUrl.includes('unreachable')) throw new AppError({ code: 'network', message: 'ECONNREFUSED' });
      if (!valid.has(key)) {
        throw new AppError({ code: 'auth', message: 'Unauthorized', httpStatus: 401 });
      }
      return [];
    },
    events,
    logger: { info: () => {}, warn: (message) => void warnings.push(message) },
  });
  return {
    manager,
    settings,
    keyStore,
    store,
    dbs,
    demoCalls,
    announced,
    warnings,
    failOpenWhen: (fn: (ref: AccountRef) => boolean) => void (failOpen = fn),
  };
}

async function refusal(promise: Promise<unknown>): Promise<ErrorInfo> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.info;
    throw error;
  }
  throw new Error('expected a refusal');
}

const openDbs = (dbs: OpenedDb[]) => dbs.filter((db) => !isClosed(db)).map((db) => db.ref);

describe('account manager', () => {
  it('starts with no account and opens nothing before a key or the demo', async () => {
    const { manager, dbs } = setup();
    expect(await manager.start()).toEqual({
      mode: 'none',
      id: null,
      keyConfigured: false,
      keyStorage: 'none',
      baseUrl: null,
    });
    expect(dbs).toEqual([]);
    expect(manager.current()).toBeNull();
    expect((await refusal(Promise.resolve().then(() => manager.requireSession()))).code).toBe('auth');
  });

  it('verifies a key, saves it encrypted and opens that account database', async () => {
    const { manager, dbs, settings, announced } = setup();
    await manager.start();
    const info = await manager.setKey(KEY_A);
    expect(info).toEqual({
      mode: 'service',
      id: accountId({ baseUrl: BASE, keyFingerprint: keyFingerprint(KEY_A) }),
      keyConfigured: true,
      keyStorage: 'encrypted',
      baseUrl: BASE,
    });
    expect(openDbs(dbs)).toEqual([{ baseUrl: BASE, keyFingerprint: keyFingerprint(KEY_A) }]);
    expect(settings.get().mode).toBe('service');
    expect(announced.at(-1)).toEqual(info);
    const session = manager.requireSession();
    expect(keyOf(session.client)).toBe(KEY_A);
    expect(session.cache).toBe(dbs[0]!.cache);
    expect(session.area).toBe('');
  });

  it('gives two keys two databases and closes the first after its users let go', async () => {
    const { manager, dbs } = setup();
    await manager.start();
    await manager.setKey(KEY_A);
    const first = manager.requireSession();
    const order: string[] = [];
    manager.onSessionClosing(async (session) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`closing ${session.cache === first.cache ? 'A' : '?'} while open=${first.cache.sqlite.open}`);
    });
    manager.onSessionOpened(() => void order.push('opened B'));
    await manager.setKey(KEY_B);
    expect(order).toEqual(['closing A while open=true', 'opened B']);
    expect(first.cache.sqlite.open).toBe(false);
    expect(clientClosed(first.client)).toBe(true);
    expect(openDbs(dbs)).toEqual([{ baseUrl: BASE, keyFingerprint: keyFingerprint(KEY_B) }]);
    expect(dbs[0]!.ref).not.toEqual(dbs[1]!.ref);
    // A request still in flight on the old client must not carry the new key.
    expect(keyOf(first.client)).toBeNull();
    expect(keyOf(manager.requireSession().client)).toBe(KEY_B);
  });

  it('names each account apart in its info (its database folder), never with the key', async () => {
    const { manager } = setup();
    expect((await manager.start()).id).toBeNull();
    const a = (await manager.setKey(KEY_A)).id;
    const b = (await manager.setKey(KEY_B)).id;
    const demo = (await manager.useDemo()).id;
    expect(new Set([a, b, demo]).size).toBe(3);
    expect(a).toBe(accountId({ baseUrl: BASE, keyFingerprint: keyFingerprint(KEY_A) }));
    expect(demo).toBe('demo');
    for (const id of [a, b]) {
      expect(id).toMatch(/^[0-9a-f]{16}$/);
      expect(id).not.toBe(keyFingerprint(KEY_A));
      expect(id).not.toBe(keyFingerprint(KEY_B));
    }
    expect((await manager.leaveDemo()).id).toBe(b);
    expect((await manager.removeKey()).id).toBeNull();
  });

  it('refuses a key the service rejects and keeps the previous key and account', async () => {
    const { manager, keyStore, dbs } = setup({ validKeys: [KEY_A] });
    await manager.start();
    await manager.setKey(KEY_A);
    const error = await refusal(manager.setKey(KEY_B));
    expect(error).toMatchObject({ code: 'auth', field: 'key', httpStatus: 401 });
    expect(error.message).toMatch(/refused this key/);
    expect(error.message).not.toContain(KEY_B);
    expect(keyStore.get()).toBe(KEY_A);
    expect(dbs).toHaveLength(1);
    expect(manager.info().mode).toBe('service');
  });

  it('reports an unreachable service as a network problem and a placeholder address as unset', async () => {
    const { manager, settings, keyStore } = setup();
    settings.update({ baseUrl: 'https://unreachable.example.com' });
    expect(await refusal(manager.setKey(KEY_A))).toMatchObject({ code: 'network' });
    settings.update({ baseUrl: 'https://api.example.invalid/v1' });
    expect(await refusal(manager.setKey(KEY_A))).toMatchObject({ code: 'invalid_argument', field: 'baseUrl' });
    expect(keyStore.status().configured).toBe(false);
    // The user may still save without the check.
    expect((await manager.setKey(KEY_A, { verify: false })).mode).toBe('service');
  });

  it('runs the demo on its own database and goes back to the service account after', async () => {
    const { manager, dbs, demoCalls, settings } = setup();
    await manager.start();
    await manager.setKey(KEY_A);
    const demoInfo = await manager.useDemo();
    expect(demoInfo).toMatchObject({ mode: 'demo', baseUrl: 'http://127.0.0.1:4999', keyConfigured: true });
    expect(openDbs(dbs)).toEqual(['demo']);
    expect(keyOf(manager.requireSession().client)).toBe('demo-key');
    expect(manager.requireSession().area).toBe('Demo');
    expect(settings.get().mode).toBe('demo');
    const back = await manager.leaveDemo();
    expect(back).toMatchObject({ mode: 'service', baseUrl: BASE });
    expect(openDbs(dbs)).toEqual([{ baseUrl: BASE, keyFingerprint: keyFingerprint(KEY_A) }]);
    expect(demoCalls).toEqual({ starts: 1, stops: 1 });
  });

  it('starts the emulator once when the demo is asked for twice at the same time', async () => {
    const { manager, dbs, demoCalls } = setup();
    await manager.start();
    await Promise.all([manager.useDemo(), manager.useDemo()]);
    expect(demoCalls.starts).toBe(1);
    expect(dbs).toHaveLength(1);
    expect((await manager.leaveDemo()).mode).toBe('none');
    expect(demoCalls.stops).toBe(1);
  });

  it('says plainly when this host has no demo', async () => {
    const { manager } = setup({ demo: null });
    expect(await refusal(manager.useDemo())).toMatchObject({ code: 'unsupported' });
  });

  it('removing the key closes the account and stops sending it', async () => {
    const { manager, dbs, settings, store } = setup();
    await manager.start();
    await manager.setKey(KEY_A);
    const client = manager.requireSession().client;
    expect(await manager.removeKey()).toEqual({
      mode: 'none',
      id: null,
      keyConfigured: false,
      keyStorage: 'none',
      baseUrl: null,
    });
    expect(isClosed(dbs[0]!)).toBe(true);
    expect(keyOf(client)).toBeNull();
    expect(settings.get().mode).toBe('none');
    expect(store.get('apiKey')).toBeUndefined();
  });

  it('removing the key during the demo keeps the demo running', async () => {
    const { manager } = setup();
    await manager.start();
    await manager.setKey(KEY_A);
    await manager.useDemo();
    expect(await manager.removeKey()).toMatchObject({ mode: 'demo', keyConfigured: false });
  });

  it('reopens the saved account after a restart, demo included', async () => {
    const store = createMemoryStore();
    const cipher = createFakeCipher();
    const first = setup({ store, cipher });
    await first.manager.start();
    await first.manager.setKey(KEY_A);
    await first.manager.close();
    expect(first.dbs.every(isClosed)).toBe(true);

    const second = setup({ store, cipher });
    expect(await second.manager.start()).toMatchObject({ mode: 'service', keyStorage: 'encrypted' });
    expect(keyOf(second.manager.requireSession().client)).toBe(KEY_A);
    await second.manager.useDemo();
    await second.manager.close();
    expect(second.demoCalls).toEqual({ starts: 1, stops: 1 });

    const third = setup({ store, cipher });
    expect((await third.manager.start()).mode).toBe('demo');
    await third.manager.close();
  });

  it('starts without an account when the saved one cannot be opened', async () => {
    const store = createMemoryStore();
    const cipher = createFakeCipher();
    const first = setup({ store, cipher });
    await first.manager.setKey(KEY_A);
    await first.manager.close();
    const second = setup({ store, cipher });
    second.failOpenWhen(() => true);
    expect((await second.manager.start()).mode).toBe('none');
    expect(second.warnings.join(' ')).toMatch(/saved account/);
  });

  it('keeps the current account when the next database cannot be opened', async () => {
    const { manager, dbs, keyStore, failOpenWhen } = setup();
    await manager.setKey(KEY_A);
    failOpenWhen((ref) => ref !== 'demo' && ref.keyFingerprint === keyFingerprint(KEY_B));
    expect((await refusal(manager.setKey(KEY_B))).message).toMatch(/newer app/);
    expect(keyStore.get()).toBe(KEY_A);
    expect(openDbs(dbs)).toHaveLength(1);
    expect(manager.requireSession().cache.sqlite.open).toBe(true);
  });

  it('sends the key to no address it was not entered for; with the key again, opens that service’s own database', async () => {
    const { manager, dbs, settings } = setup();
    await manager.setKey(KEY_A);
    settings.update({ baseUrl: 'https://eu.media.example.com/v1' });
    await manager.settled();
    expect(openDbs(dbs)).toEqual([]);
    expect(manager.info()).toMatchObject({ mode: 'none', keyConfigured: true });
    await manager.setKey(KEY_A, { baseUrl: 'https://eu.media.example.com/v1' });
    expect(openDbs(dbs)).toEqual([
      { baseUrl: 'https://eu.media.example.com/v1', keyFingerprint: keyFingerprint(KEY_A) },
    ]);
    expect(manager.info().baseUrl).toBe('https://eu.media.example.com/v1');
    expect(settings.get().baseUrl).toBe('https://eu.media.example.com/v1');
  });

  it('announces where the key went when the weak-storage opt-in changes', async () => {
    const { manager, settings, announced } = setup({ cipher: noCipher });
    expect((await manager.setKey(KEY_A)).keyStorage).toBe('session');
    settings.update({ allowWeakKeyStorage: true });
    await manager.settled();
    expect(announced.at(-1)).toMatchObject({ mode: 'service', keyStorage: 'plain' });
    for (const info of announced) expect(JSON.stringify(info)).not.toContain(KEY_A);
  });
});
