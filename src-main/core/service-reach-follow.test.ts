// Connectivity through the real core and dispatcher: a service account whose service is down when
// the core starts is found unreachable by the core's own check (no request from anyone else), paid
// work is refused before any job row is written, and once the service answers on the same address
// the same call goes through.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import type { ServiceReachInfo } from '../contract/ipc/sync.ts';
import { createCore, type Core } from './core.ts';
import { UNREACHABLE_REFUSAL } from './host/service-reach.ts';

const host = { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null } as const;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function deadPort(): Promise<number> {
  const emulator = await startEmulator({ port: 0 });
  const port = Number(new URL(emulator.url).port);
  await emulator.close();
  return port;
}

async function coreFor(
  port: number,
  kind: 'browser' | 'cli' = 'browser',
): Promise<{ core: Core; reach: ServiceReachInfo[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'atelier-reach-core-'));
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { baseUrl: `http://127.0.0.1:${port}` } }));
  const core = await createCore({ dataDir, host: { ...host, kind }, apiKeyOverride: 'demo-key', logError: () => {} });
  const reach: ServiceReachInfo[] = [];
  core.events.subscribe((event, payload) => {
    if (event === 'service:reach') reach.push(payload as ServiceReachInfo);
  });
  cleanups.push(async () => {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { core, reach };
}

const untilReach = async (core: Core, wanted: boolean): Promise<void> => {
  for (;;) {
    const status = await core.dispatch('service:check', undefined);
    if (status.ok && (status.value as ServiceReachInfo).reachable === wanted) return;
  }
};

const submit = (core: Core) =>
  core.dispatch('jobs:submit', { kind: 'image', body: { modelID: 'imagea', prompt: 'a heron at dawn' } });

describe('connectivity in the core', () => {
  it('started with the service down: unreachable by its own check, paid work refused with no job row, then sent once it answers', async () => {
    const port = await deadPort();
    const { core, reach } = await coreFor(port);
    await untilReach(core, false);
    expect(await core.dispatch('service:status', undefined)).toEqual({ ok: true, value: { reachable: false } });
    expect(reach).toEqual([{ reachable: false }]);

    expect(await submit(core)).toEqual({ ok: false, error: { code: 'offline', message: UNREACHABLE_REFUSAL } });
    expect(await core.dispatch('training:start', { modelId: 'mdl_x' })).toMatchObject({
      ok: false,
      error: { code: 'offline' },
    });
    expect(await core.dispatch('jobs:list', {})).toEqual({ ok: true, value: [] });

    const emulator: RunningEmulator = await startEmulator({ port });
    cleanups.push(() => emulator.close());
    // The refusal checks again first: the service is back, so the job is sent.
    expect(await submit(core)).toMatchObject({ ok: true });
    expect(emulator.control.stats().byRoute['POST /images/generation']).toBe(1);
    expect(reach).toEqual([{ reachable: false }, { reachable: true }]);
  });

  it('the CLI does not watch: no check of its own, and no refusal on a stale outcome', async () => {
    const emulator = await startEmulator({ port: 0 });
    cleanups.push(() => emulator.close());
    const { core } = await coreFor(Number(new URL(emulator.url).port), 'cli');
    expect(await core.dispatch('service:check', undefined)).toEqual({ ok: true, value: { reachable: null } });
    expect(emulator.control.stats().byRoute['GET /presets'] ?? 0).toBe(0);
  });
});
