import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoService, demoEmulatorDir } from './demo-service.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'atelier-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('demo service', () => {
  it('starts the emulator on loopback once, answers with the demo key, keeps its data and stops', async () => {
    const demo = createDemoService({ dataDir });
    const [first, second] = await Promise.all([demo.start(), demo.start()]);
    expect(second).toEqual(first);
    expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.apiKey).toBe('demo-key');

    const models = await fetch(`${first.baseUrl}/models`, { headers: { Authorization: `Bearer ${first.apiKey}`, 'API-Version': '1' } });
    expect(models.status).toBe(200);
    // The test-control routes are not part of the app's demo.
    expect((await fetch(`${first.baseUrl}/__emulator/stats`)).status).toBe(404);

    await demo.stop();
    await expect(fetch(`${first.baseUrl}/models`)).rejects.toThrow();
    expect(readdirSync(demoEmulatorDir(dataDir)).length).toBeGreaterThan(0);
    await demo.stop();
  });

  it('can be started again after a failed start', async () => {
    let attempts = 0;
    const demo = createDemoService({
      dataDir,
      start: async (options) => {
        attempts += 1;
        if (attempts === 1) throw new Error('port in use');
        const { startEmulator } = await import('../../emulator/index.ts');
        return startEmulator(options);
      },
    });
    await expect(demo.start()).rejects.toThrow('port in use');
    const { baseUrl } = await demo.start();
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
    await demo.stop();
  });
});
