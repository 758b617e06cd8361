// The key and the service address are one trusted pair, and hosts sharing a data folder cannot
// destroy each other's credentials. Through a real core and dispatcher, with two real services
// (emulators) on loopback: the second one stands for "an address an attacker controls".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import { createCore, type Core } from '../core.ts';
import { createFakeCipher } from '../secrets/fake-cipher.ts';
import { noCipher } from '../secrets/cipher.ts';
import { createJsonFileStore } from '../settings/json-file-store.ts';
import { createMemoryStore, type KeyValueStore } from '../settings/store.ts';

const host = { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null } as const;
const KEY = 'sk-trusted-pair-0123456789abcdef';

let service: RunningEmulator;
let elsewhere: RunningEmulator;
let dataDir: string;
const cores: Core[] = [];

const open = async (store: KeyValueStore, cipher = noCipher): Promise<Core> => {
  const core = await createCore({ dataDir, host, store, cipher });
  cores.push(core);
  return core;
};

beforeAll(async () => {
  service = await startEmulator({ seed: 1, apiKeys: [KEY] });
  elsewhere = await startEmulator({ seed: 2, apiKeys: [KEY] });
});
afterAll(async () => {
  await service.close();
  await elsewhere.close();
});
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'atelier-pairing-'));
});
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the service address and the key are one pair', () => {
  it('settings:update cannot point the saved key at another address', async () => {
    const core = await open(createMemoryStore({ settings: { baseUrl: service.url } }));
    expect(await core.dispatch('account:set-key', { key: KEY, verify: false })).toMatchObject({
      ok: true,
      value: { mode: 'service', baseUrl: service.url },
    });
    const moved = await core.dispatch('settings:update', { baseUrl: elsewhere.url });
    expect(moved).toMatchObject({ ok: false, error: { code: 'invalid_argument', field: 'baseUrl' } });
    expect(await core.dispatch('account:status', undefined)).toMatchObject({
      ok: true,
      value: { mode: 'service', baseUrl: service.url },
    });
  });

  it('a new address comes only with the key, entered again, through account:set-key', async () => {
    const core = await open(createMemoryStore({ settings: { baseUrl: service.url } }));
    await core.dispatch('account:set-key', { key: KEY, verify: false });
    const switched = await core.dispatch('account:set-key', { key: KEY, baseUrl: elsewhere.url, verify: true });
    expect(switched).toMatchObject({ ok: true, value: { mode: 'service', baseUrl: elsewhere.url } });
    expect(await core.dispatch('settings:get', undefined)).toMatchObject({ value: { baseUrl: elsewhere.url } });
  });

  it('a saved key is not sent to an address written into the settings by anyone else', async () => {
    const store = createMemoryStore({ settings: { baseUrl: service.url, allowWeakKeyStorage: true } });
    const first = await open(store);
    await first.dispatch('account:set-key', { key: KEY, verify: false });
    await first.close();
    cores.length = 0;
    // Another process (or a hand edit) changes the address in the shared settings file.
    const settings = store.get('settings') as Record<string, unknown>;
    store.set('settings', { ...settings, baseUrl: elsewhere.url });
    const second = await open(store);
    const status = await second.dispatch('account:status', undefined);
    expect(status).toMatchObject({ ok: true, value: { mode: 'none' } });
  });
});

describe('hosts sharing a data folder keep their own credentials', () => {
  it("browser mode (no keychain) neither overwrites nor deletes the app's encrypted key", async () => {
    const appCipher = createFakeCipher();
    createJsonFileStore(dataDir).set('settings', { baseUrl: service.url });
    const app = await open(createJsonFileStore(dataDir), appCipher);
    expect(await app.dispatch('account:set-key', { key: KEY, verify: false })).toMatchObject({
      ok: true,
      value: { keyStorage: 'encrypted' },
    });
    await app.close();
    cores.length = 0;

    // Browser mode on the same folder: it cannot read the app's key, sets its own, then removes it.
    const browser = await open(createJsonFileStore(dataDir));
    expect(await browser.dispatch('account:status', undefined)).toMatchObject({ value: { keyConfigured: false } });
    expect(await browser.dispatch('account:set-key', { key: 'sk-browser-session-key', verify: false })).toMatchObject({
      ok: true,
      value: { keyStorage: 'session' },
    });
    await browser.dispatch('account:remove-key', undefined);
    await browser.close();
    cores.length = 0;

    const again = await open(createJsonFileStore(dataDir), appCipher);
    expect(await again.dispatch('account:status', undefined)).toMatchObject({
      ok: true,
      value: { mode: 'service', keyConfigured: true, keyStorage: 'encrypted', baseUrl: service.url },
    });
  });
});

describe('a key saved before the pairing existed', () => {
  it('is paired with the address in use when first read, and then goes nowhere else', async () => {
    const store = createMemoryStore({
      settings: { baseUrl: service.url, allowWeakKeyStorage: true, mode: 'service' },
      apiKey: { storage: 'plain', key: KEY },
    });
    const first = await open(store);
    expect(await first.dispatch('account:status', undefined)).toMatchObject({
      value: { mode: 'service', baseUrl: service.url },
    });
    expect(store.get('apiKey')).toMatchObject({ baseUrl: service.url });
    await first.close();
    cores.length = 0;
    store.set('settings', { ...(store.get('settings') as object), baseUrl: elsewhere.url });
    const second = await open(store);
    expect(await second.dispatch('account:status', undefined)).toMatchObject({ value: { mode: 'none' } });
  });
});
