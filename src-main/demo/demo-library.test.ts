// "Try the demo" opens a library in use: about 200 results with favourites, two collections, the trained
// models named, and the newest images downloaded, within seconds; once only (a restart changes nothing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssetCountsInfo } from '../contract/ipc/assets.ts';
import type { CollectionInfo } from '../contract/ipc/collections.ts';
import type { ModelInfo } from '../contract/ipc/models.ts';
import { createCore, type Core } from '../core/core.ts';
import { createEmulatorDemo } from './emulator-demo.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const host = { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null } as const;

async function value<T>(core: Core, channel: string, args?: unknown): Promise<T> {
  const result = await core.dispatch(channel, args);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const start = Date.now();
  for (;;) {
    const current = await read();
    if (done(current)) return current;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; last: ${JSON.stringify(current).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the demo library', () => {
  it('opens organised: results, favourites, two collections, named models, the newest images on disk', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atelier-demo-lib-'));
    dirs.push(dataDir);
    const core = await createCore({ dataDir, host, demo: createEmulatorDemo({ dataDir }) });
    try {
      const started = Date.now();
      await value(core, 'account:use-demo');
      const collections = await until(
        () => value<CollectionInfo[]>(core, 'collections:list'),
        (list) => list.length === 2,
        5000,
      );
      expect(collections.map((c) => c.name)).toEqual(['Coastlines', 'Product shots']);
      expect(collections.every((c) => c.count >= 5)).toBe(true);
      const counts = await value<AssetCountsInfo>(core, 'assets:counts', { origin: 'generated' });
      expect(counts.total).toBeGreaterThanOrEqual(180);
      expect(counts.videos).toBeGreaterThanOrEqual(20);
      expect(counts.favorites).toBeGreaterThanOrEqual(6);
      const uploads = await value<AssetCountsInfo>(core, 'assets:counts', { origin: 'uploaded' });
      expect(uploads.total).toBe(26);
      const models = await value<ModelInfo[]>(core, 'models:list');
      expect(
        models
          .filter((m) => m.label)
          .map((m) => m.label)
          .sort(),
      ).toEqual(['Maya — portraits', 'Studio ceramics']);
      // The first screen's worth of thumbnails soon after choosing the demo (the e2e holds it to 5 s in
      // the browser; here other test files share the two cores, so the bound is looser).
      await until(
        () => value<{ items: { file: { thumbPath: string | null } }[] }>(core, 'assets:list', { limit: 24 }),
        (page) => page.items.filter((a) => a.file.thumbPath).length >= 18,
        Math.max(0, 8000 - (Date.now() - started)),
      );
    } finally {
      await core.close();
    }

    // A restart neither adds nor re-creates anything.
    const again = await createCore({ dataDir, host, demo: createEmulatorDemo({ dataDir }) });
    try {
      await new Promise((r) => setTimeout(r, 500));
      const list = await value<CollectionInfo[]>(again, 'collections:list');
      expect(list).toHaveLength(2);
    } finally {
      await again.close();
    }
  });
});
