import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountInfo } from '../contract/ipc/app.ts';
import { createCore } from '../core/core.ts';
import { createEmulatorDemo } from './emulator-demo.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-demo-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const listModels = (baseUrl: string, key: string) =>
  fetch(`${baseUrl}/models`, { headers: { Authorization: `Bearer ${key}`, 'API-Version': '1' } });

describe('browser-mode demo', () => {
  it('starts the emulator once on loopback, stops it, and keeps its data', async () => {
    const dataDir = tempDir();
    const demo = createEmulatorDemo({ dataDir });
    const [first, second] = await Promise.all([demo.start(), demo.start()]);
    expect(first).toEqual(second);
    expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await listModels(first.baseUrl, first.apiKey)).status).toBe(200);
    expect((await listModels(first.baseUrl, 'someone-else')).status).toBe(401);
    await demo.stop();
    await expect(listModels(first.baseUrl, first.apiKey)).rejects.toThrow();
    expect(existsSync(join(dataDir, 'demo-emulator'))).toBe(true);
    const restarted = await demo.start();
    expect((await listModels(restarted.baseUrl, restarted.apiKey)).status).toBe(200);
    await demo.stop();
  });

  it('gives the core a demo account through the contract, and survives a restart', async () => {
    const dataDir = tempDir();
    const host = { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null } as const;
    const core = await createCore({ dataDir, host, demo: createEmulatorDemo({ dataDir }) });
    const changes: AccountInfo[] = [];
    core.events.subscribe((event, payload) => {
      if (event === 'account:changed') changes.push(payload as AccountInfo);
    });
    const result = await core.dispatch('account:use-demo', undefined);
    expect(result).toMatchObject({ ok: true, value: { mode: 'demo', keyConfigured: false } });
    expect(changes).toHaveLength(1);
    const baseUrl = changes[0]!.baseUrl!;
    expect((await listModels(baseUrl, 'demo-key')).status).toBe(200);
    await core.close();
    await expect(listModels(baseUrl, 'demo-key')).rejects.toThrow();

    const again = await createCore({ dataDir, host, demo: createEmulatorDemo({ dataDir }) });
    expect(await again.dispatch('account:status', undefined)).toMatchObject({ ok: true, value: { mode: 'demo' } });
    expect(await again.dispatch('account:leave-demo', undefined)).toMatchObject({ ok: true, value: { mode: 'none' } });
    await again.close();
  });
});
