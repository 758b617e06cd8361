// An account database that cannot be opened (written by a newer Atelier, damaged, unreadable)
// must not look like "No account yet" with the reason only in the log: the account info says why,
// names the folder, and "Start fresh" sets the old file aside (kept) and opens a new one.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountDatabasePath } from '../db/account-path.ts';
import { createEventBus } from '../events.ts';
import { silentLogger } from '../log/logger.ts';
import { keyFingerprint } from '../secrets/fingerprint.ts';
import { createMemoryStore } from '../settings/store.ts';
import { setUpAccounts, type AccountServices } from './setup.ts';

const KEY = 'sk-test-0123456789abcdef';
const BASE = 'https://api.example.com/v1';

let dataDir: string;
let services: AccountServices | undefined;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'atelier-open-'));
});
afterEach(async () => {
  await services?.accounts.close();
  services = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

const dbFile = () => accountDatabasePath(dataDir, { baseUrl: BASE, keyFingerprint: keyFingerprint(KEY) });

async function start(): Promise<AccountServices> {
  const store = createMemoryStore();
  store.set('settings', { baseUrl: BASE });
  services = await setUpAccounts({
    dataDir,
    events: createEventBus(),
    logger: silentLogger(),
    store,
    apiKeyOverride: KEY,
  });
  return services;
}

describe('an account database that cannot be opened', () => {
  it('says a newer Atelier wrote it, where it is, and starts fresh keeping the old file', async () => {
    mkdirSync(dirname(dbFile()), { recursive: true });
    const newer = new Database(dbFile());
    newer.pragma('user_version = 999');
    newer.close();
    const { accounts } = await start();
    const info = accounts.info();
    expect(info.mode).toBe('none');
    expect(info.openProblem).toMatchObject({ kind: 'newer', folder: dirname(dbFile()) });
    expect(info.openProblem?.message).toMatch(/written by a newer Atelier.*start fresh/);

    const fresh = await accounts.startFresh();
    expect(fresh.mode).toBe('service');
    expect(fresh.openProblem ?? null).toBeNull();
    const kept = readdirSync(dirname(dbFile())).filter((name) => name.startsWith('atelier.db.newer-'));
    expect(kept).toHaveLength(1);
    const old = new Database(join(dirname(dbFile()), kept[0]!), { readonly: true });
    expect(old.pragma('user_version', { simple: true })).toBe(999);
    old.close();
  });

  it('says a damaged file is damaged (not "No account yet")', async () => {
    mkdirSync(dirname(dbFile()), { recursive: true });
    writeFileSync(dbFile(), 'this is not a database, just some bytes that are long enough to be read as a header..');
    const { accounts } = await start();
    expect(accounts.info().openProblem).toMatchObject({ kind: 'damaged' });
    expect(accounts.info().openProblem?.message).toMatch(/damaged/);
    await accounts.startFresh();
    expect(accounts.info().mode).toBe('service');
    expect(readdirSync(dirname(dbFile())).some((name) => name.startsWith('atelier.db.damaged-'))).toBe(true);
    expect(existsSync(dbFile())).toBe(true);
  });

  it('start fresh is refused when nothing failed', async () => {
    const { accounts } = await start();
    expect(accounts.info().mode).toBe('service');
    await expect(accounts.startFresh()).rejects.toMatchObject({ info: { code: 'conflict' } });
  });
});
