// State under --data-dir survives a restart; snapshots are written atomically and a broken one is set aside.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from './index.ts';
import { EmulatorStore } from './store.ts';
import { Api, HOUR, MINUTE, smallPng } from './test-support.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const pathOf = (url: string): string => new URL(url).pathname;

describe('persistence', () => {
  it('brings back models, uploads, jobs, outputs and the clock after a restart', async () => {
    const dataDir = tempDir();
    const first = await startEmulator({ dataDir, seed: 5 });
    const api = new Api(first.url);
    const model = await api.ok<{ id: string }>('POST', '/models', { modelType: 'pet' });
    const png = await smallPng();
    const upload = await api.upload(model.id, 'modelInput', png);
    const { jobId } = await api.ok<{ jobId: string }>('POST', '/images/generation', {
      modelID: 'imagea',
      prompt: 'kept',
    });
    first.control.advanceClock(2 * HOUR);
    const virtualBefore = first.control.now();
    const jobBefore = await api.ok<{ status: string; images: { url: string }[] }>('GET', `/jobs/${jobId}`);
    await first.close();

    const second = await startEmulator({ dataDir, seed: 5 });
    try {
      const again = new Api(second.url);
      expect(second.control.now()).toBeGreaterThanOrEqual(virtualBefore);
      expect(await again.ok('GET', `/models/${model.id}`)).toMatchObject({
        id: model.id,
        modelType: 'pet',
        status: 'new',
      });
      const image = await again.ok<{ url: string }>('GET', `/images/${upload.body.result.id as string}`);
      expect(pathOf(image.url)).toBe(pathOf(upload.body.result.url as string));
      expect(Buffer.from(await (await fetch(image.url)).arrayBuffer()).equals(png)).toBe(true);
      const job = await again.ok<{ status: string; images: { url: string }[] }>('GET', `/jobs/${jobId}`);
      expect(job.status).toBe('success');
      expect(pathOf(job.images[0]?.url ?? '')).toBe(pathOf(jobBefore.images[0]?.url ?? ''));
      expect((await fetch(job.images[0]?.url ?? '')).status).toBe(200);
      // New ids never collide with restored ones.
      const next = await again.ok<{ id: string }>('POST', '/models', {});
      expect(next.id).not.toBe(model.id);
    } finally {
      await second.close();
    }
  });

  it('writes a snapshot shortly after a change, without waiting for close', async () => {
    const dataDir = tempDir();
    const emulator = await startEmulator({ dataDir });
    try {
      await new Api(emulator.url).ok('POST', '/models', {});
      await sleep(600);
      const snapshot = JSON.parse(readFileSync(join(dataDir, 'emulator-state.json'), 'utf8')) as { models: unknown[] };
      expect(snapshot.models).toHaveLength(1);
      expect(readdirSync(dataDir).some((f) => f.includes('.tmp-'))).toBe(false);
      expect(readFileSync(join(dataDir, 'emulator-state.json'), 'utf8')).not.toContain('demo-key');
    } finally {
      await emulator.close();
    }
  });

  it('keeps training progress across a restart (virtual time keeps going)', async () => {
    const dataDir = tempDir();
    const first = await startEmulator({ dataDir });
    const api = new Api(first.url);
    const model = await api.ok<{ id: string }>('POST', '/models', {});
    for (let i = 0; i < 12; i += 1) await api.upload(model.id, 'modelInput', await smallPng());
    await api.ok('GET', `/models/${model.id}/train`);
    first.control.advanceClock(10 * MINUTE);
    await first.close();
    const second = await startEmulator({ dataDir });
    try {
      const again = new Api(second.url);
      expect((await again.ok<{ status: string }>('GET', `/models/${model.id}`)).status).toBe('training');
      second.control.advanceClock(16 * MINUTE);
      expect((await again.ok<{ status: string }>('GET', `/models/${model.id}`)).status).toBe('ready');
    } finally {
      await second.close();
    }
  });

  it('sets an unreadable snapshot aside and starts empty', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'emulator-state.json'), '{"version": 1, "models": [');
    const emulator = await startEmulator({ dataDir });
    try {
      expect(await new Api(emulator.url).ok<unknown[]>('GET', '/models')).toHaveLength(2);
      expect(readdirSync(dataDir).some((f) => f.startsWith('emulator-state.json.unreadable-'))).toBe(true);
    } finally {
      await emulator.close();
    }
  });

  it('reads the single upscale link of older snapshots as a one-item upscale list', () => {
    const store = new EmulatorStore(3);
    const image = {
      id: 'img_src',
      ownerId: 'usr_a',
      modelID: 'imagea',
      type: 'output' as const,
      createdAt: 0,
      updatedAt: 0,
      source: {
        kind: 'render' as const,
        format: 'jpeg' as const,
        width: 8,
        height: 8,
        prompt: 'p',
        seed: 1,
        caption: '',
      },
      data: {},
      upscaledImageId: 'img_up',
    };
    store.restore({ ...store.snapshot(0), images: [image] });
    expect(store.images.get('img_src')).toMatchObject({ upscaledImageIds: ['img_up'] });
    expect(store.images.get('img_src')).not.toHaveProperty('upscaledImageId');
  });

  it('writes nothing to disk without a data dir', async () => {
    const emulator = await startEmulator();
    await new Api(emulator.url).ok('POST', '/models', {});
    await emulator.close();
    expect(existsSync(join(process.cwd(), 'emulator-state.json'))).toBe(false);
  });
});
