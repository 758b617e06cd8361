import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../core.ts';
import { createMemoryStore } from '../settings/store.ts';
import type { DemoService } from '../account/types.ts';

const host = { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null } as const;

describe('settings and account channels through the dispatcher', () => {
  let dataDir: string;
  let core: Core;
  const events: { event: string; payload: unknown }[] = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-channels-'));
    core = await createCore({ dataDir, host, store: createMemoryStore() });
    events.length = 0;
    core.events.subscribe((event, payload) => void events.push({ event, payload }));
  });
  afterEach(async () => {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads defaults, updates a field and announces the change', async () => {
    const before = await core.dispatch('settings:get', undefined);
    expect(before).toMatchObject({
      ok: true,
      value: { theme: 'system', downloadConcurrency: 3, libraryDir: join(dataDir, 'Library') },
    });
    const after = await core.dispatch('settings:update', { theme: 'dark', downloadConcurrency: 5 });
    expect(after).toMatchObject({ ok: true, value: { theme: 'dark', downloadConcurrency: 5 } });
    expect(events).toEqual([{ event: 'settings:changed', payload: (after as { value: unknown }).value }]);
  });

  it.each([
    [{ downloadConcurrency: 9 }, 'downloadConcurrency'],
    [{ theme: 3 }, 'theme'],
    [{ mode: 'demo' }, 'mode'],
    [{ windowState: null }, 'windowState'],
    [{ baseUrl: 'ftp://media.example.com' }, 'baseUrl'],
    [{ baseUrl: 'https://media.example.com/v1' }, 'baseUrl'],
    [{ libraryDir: '/' }, 'libraryDir'],
  ])('refuses %j with invalid_argument naming the field', async (patch, field) => {
    const result = await core.dispatch('settings:update', patch);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_argument', field } });
    expect(events).toEqual([]);
  });

  it.each([
    [{ key: '' }, /Enter an API key/],
    [{ key: '   ' }, /Enter an API key/],
    [{ key: 'sk-abc def' }, /no spaces/],
    [{ key: 'sk-ünïcode' }, /no spaces or special characters/],
    [{ key: 42 }, /must be text/],
    [{ key: 'x'.repeat(513) }, /at most 512/],
    [{}, /API key as text/],
    [{ key: 'sk-abc', keyAgain: 'sk-abc' }, /API key as text/],
    [{ key: 'sk-abc', verify: 'yes' }, /true or false/],
  ])('refuses a malformed key %j without echoing it', async (args, message) => {
    const result = await core.dispatch('account:set-key', args);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_argument');
    expect(result.error.message).toMatch(message);
    if (typeof (args as { key?: unknown }).key === 'string' && (args as { key: string }).key.trim()) {
      expect(result.error.message).not.toContain((args as { key: string }).key.trim());
    }
  });

  it('asks for the service address before checking a key, and has no demo without a demo service', async () => {
    expect(await core.dispatch('account:set-key', { key: 'sk-abc' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'baseUrl' },
    });
    expect(await core.dispatch('account:use-demo', undefined)).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    expect(await core.dispatch('account:status', undefined)).toEqual({
      ok: true,
      value: { mode: 'none', id: null, keyConfigured: false, keyStorage: 'none', baseUrl: null },
    });
  });

  it('keeps a key for the session only in a host without encryption, and says so', async () => {
    const saved = await core.dispatch('account:set-key', {
      key: 'sk-session-only',
      baseUrl: 'https://media.example.com/v1',
      verify: false,
    });
    expect(saved).toMatchObject({ ok: true, value: { mode: 'service', keyStorage: 'session' } });
    const info = await core.dispatch('app:info', undefined);
    expect(info).toMatchObject({ ok: true, value: { account: { mode: 'service', keyConfigured: true } } });
    const weak = await core.dispatch('settings:update', { allowWeakKeyStorage: true });
    expect(weak.ok).toBe(true);
    expect(events.filter((e) => e.event === 'account:changed').at(-1)?.payload).toMatchObject({ keyStorage: 'plain' });
  });

  it('opens a database of its own for each key and for the demo, and closes the previous one', async () => {
    const demo: DemoService = {
      start: async () => ({ baseUrl: 'http://127.0.0.1:9', apiKey: 'demo-key' }),
      stop: async () => {},
    };
    const withDemo = await createCore({ dataDir, host, store: createMemoryStore(), demo });
    const accountsDir = join(dataDir, 'accounts');
    // SQLite in WAL mode keeps a -wal file next to a database while a connection has it open.
    const openDatabases = () =>
      readdirSync(accountsDir).filter((dir) => existsSync(join(accountsDir, dir, 'atelier.db-wal')));
    const opened: string[] = [];

    for (const key of ['sk-first-key-000', 'sk-second-key-111']) {
      const args = { key, baseUrl: 'https://media.example.com/v1', verify: false };
      expect(await withDemo.dispatch('account:set-key', args)).toMatchObject({ ok: true });
      expect(openDatabases()).toHaveLength(1);
      opened.push(...openDatabases());
    }
    expect(await withDemo.dispatch('account:use-demo', undefined)).toMatchObject({ ok: true, value: { mode: 'demo' } });
    expect(openDatabases()).toHaveLength(1);
    opened.push(...openDatabases());

    expect(new Set(opened).size).toBe(3);
    expect(readdirSync(accountsDir).filter((dir) => existsSync(join(accountsDir, dir, 'atelier.db')))).toHaveLength(3);
    await withDemo.close();
    expect(openDatabases()).toEqual([]);
  });
});
