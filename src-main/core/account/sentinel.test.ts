// The API key must never leave main: set a recognisable key through the real dispatcher, against
// the real emulator, and search every response, event, log line and file for it.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import { createCore, type Core } from '../core.ts';
import { createFakeCipher } from '../secrets/fake-cipher.ts';
import type { DemoService } from './types.ts';

const SENTINEL = 'sk-SENTINEL-7f3a9c1e5b2d8f4a6c0e9b3d7f1a5c2e';
const host = { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null } as const;

/** The sentinel as it could leak: as is, base64, hex, URL-encoded, or half of it. */
const leakForms = [
  SENTINEL,
  Buffer.from(SENTINEL).toString('base64').slice(0, 24),
  Buffer.from(SENTINEL).toString('hex').slice(0, 32),
  encodeURIComponent(SENTINEL),
  SENTINEL.slice(12, 36),
];
const leaks = (text: string): string[] => leakForms.filter((form) => text.includes(form));

const filesUnder = (dir: string): { path: string; bytes: Buffer }[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => ({
      path: join(entry.parentPath, entry.name),
      bytes: readFileSync(join(entry.parentPath, entry.name)),
    }));

describe('the API key never leaves main', () => {
  let emulator: RunningEmulator;
  let dataDir: string;
  const seen: string[] = [];
  const logged: string[] = [];
  const record = (label: string, value: unknown) => seen.push(`${label} ${JSON.stringify(value)}`);

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKeys: [SENTINEL, 'demo-key'], timeScale: 20 });
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-sentinel-'));
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation(
        (...args: unknown[]) => void logged.push(args.map(String).join(' ')),
      );
    }
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await emulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const startCore = async (cipher: ReturnType<typeof createFakeCipher>): Promise<Core> => {
    const demo: DemoService = {
      start: async () => ({ baseUrl: emulator.url, apiKey: 'demo-key' }),
      stop: async () => {},
    };
    const core = await createCore({
      dataDir,
      host,
      cipher,
      demo,
      logError: (message, error) =>
        logged.push(
          `${message} ${String(error)} ${error instanceof Error ? error.stack : ''} ${JSON.stringify(error)}`,
        ),
    });
    core.events.subscribe((event, payload) => record(`event ${event}`, payload));
    return core;
  };

  it('appears in no response, event, log line or unencrypted file', { timeout: 60_000 }, async () => {
    const cipher = createFakeCipher();
    const core = await startCore(cipher);
    const call = async (channel: string, args?: unknown) => {
      const result = await core.dispatch(channel, args);
      record(channel, result);
      return result;
    };

    // Refusals that had the key in hand: malformed, rejected by the service, wrong shape.
    expect(await call('account:set-key', { key: `${SENTINEL} x`, baseUrl: emulator.url })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(await call('account:set-key', { key: `${SENTINEL}-revoked`, baseUrl: emulator.url })).toMatchObject({
      ok: false,
      error: { code: 'auth' },
    });
    expect(await call('account:set-key', { key: SENTINEL, extra: SENTINEL })).toMatchObject({ ok: false });
    expect(await call('account:set-key', { key: SENTINEL.repeat(20) })).toMatchObject({ ok: false });

    const saved = await call('account:set-key', { key: `  ${SENTINEL}\n`, baseUrl: emulator.url });
    expect(saved).toEqual({
      ok: true,
      value: {
        mode: 'service',
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        keyConfigured: true,
        keyStorage: 'encrypted',
        baseUrl: emulator.url,
      },
    });
    // Every domain with the key in use: refreshes, models, presets, a job to its end with its
    // outputs downloaded, the library, searches, history, and service errors that had it in hand.
    expect((await call('sync:refresh', {})).ok).toBe(true);
    await call('models:list');
    const model = await call('models:create', {});
    expect(model.ok).toBe(true);
    const modelId = model.ok ? (model.value as { id: string }).id : '';
    await call('models:images', { modelId });
    expect(await call('models:get', { id: 'mdl_not_there' })).toMatchObject({ ok: false });
    await call('presets:list');
    const job = await call('jobs:submit', {
      kind: 'image',
      body: { modelID: 'imagea', prompt: 'a sentinel lighthouse' },
    });
    expect(job.ok).toBe(true);
    const localId = job.ok ? (job.value as { localId: number }).localId : 0;
    await vi.waitFor(
      async () =>
        expect(await call('jobs:get', { localId })).toMatchObject({ ok: true, value: { state: 'succeeded' } }),
      { timeout: 20_000, interval: 200 },
    );
    await vi.waitFor(
      async () => {
        const downloads = await call('library:downloads');
        expect(downloads).toMatchObject({ ok: true, value: { items: [{ state: 'succeeded' }] } });
      },
      { timeout: 20_000, interval: 200 },
    );
    await call('assets:list');
    await call('assets:search', { query: 'lighthouse' });
    await call('jobs:list');
    await call('jobs:history', {
      start: new Date(Date.now() - 3_600_000).toISOString(),
      end: new Date().toISOString(),
    });
    await call('jobs:submit', { kind: 'upscale', body: { imageID: 'img_not_mine' } });
    await call('models:delete', { id: modelId });
    await call('account:status');
    await call('app:info');
    await call('settings:get');
    await call('account:use-demo');
    await call('account:leave-demo');
    await call('settings:update', { allowWeakKeyStorage: false, theme: 'dark' });
    await core.close();

    // After a restart the key is read back (so it really was stored) and still never shown.
    const again = await startCore(cipher);
    const status = await again.dispatch('account:status', undefined);
    record('account:status after restart', status);
    expect(status).toMatchObject({
      ok: true,
      value: { mode: 'service', keyConfigured: true, keyStorage: 'encrypted' },
    });
    record('account:remove-key', await again.dispatch('account:remove-key', undefined));
    await again.close();

    expect(seen.length).toBeGreaterThan(10);
    expect(seen.some((line) => line.startsWith('event account:changed'))).toBe(true);
    expect(seen.filter((line) => leaks(line).length > 0)).toEqual([]);
    expect(logged.filter((line) => leaks(line).length > 0)).toEqual([]);
    const files = filesUnder(dataDir);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => leaks(file.bytes.toString('latin1')).length > 0).map((f) => f.path)).toEqual([]);
  });

  it('is stored only as ciphertext while configured', async () => {
    const cipher = createFakeCipher();
    const core = await startCore(cipher);
    expect(await core.dispatch('account:set-key', { key: SENTINEL, baseUrl: emulator.url })).toMatchObject({
      ok: true,
    });
    const onDisk = filesUnder(dataDir)
      .map((file) => file.bytes.toString('latin1'))
      .join('\n');
    expect(onDisk).toContain('"encrypted"');
    expect(leaks(onDisk)).toEqual([]);
    await core.close();
  });
});
