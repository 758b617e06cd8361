// The library:* channels through a real core on the demo account (the emulator in-process):
// downloads land in the library's Demo/ folder and are served by Core.serveMedia; moving the
// folder keeps every file reachable; videos cannot be deleted on the service.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../emulator/index.ts';
import type { DownloadsChangedInfo, LibraryMoveInfo } from '../../contract/ipc/library.ts';
import type { Core } from '../core.ts';
import { accountDatabasePath } from '../db/account-path.ts';
import { openDatabase } from '../db/database.ts';
import { startDemoCore, until, type DemoCore } from '../test-support/demo-core.ts';

let demo: DemoCore;
let emulator: RunningEmulator;
let core: Core;
let base: string;
const downloads: DownloadsChangedInfo[] = [];
const moves: LibraryMoveInfo[] = [];

async function call<T>(channel: string, args: unknown): Promise<T> {
  const result = await core.dispatch(channel, args);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}

beforeAll(async () => {
  demo = await startDemoCore({ emulator: { seed: 31 }, name: 'core-library', memoryStore: true });
  ({ emulator, core, base } = demo);
  core.settings.update({ libraryDir: join(base, 'Library') });
  core.events.subscribe((event, payload) => {
    if (event === 'downloads:changed') downloads.push(payload as DownloadsChangedInfo);
    if (event === 'library:move-progress') moves.push(payload as LibraryMoveInfo);
  });
  await call('account:use-demo', undefined);
  // Two assets in the demo account's cache, as sync or the jobs engine would put them there.
  const db = openDatabase(accountDatabasePath(join(base, 'data'), 'demo'));
  const insert = db.prepare(
    "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES (?, ?, 'generated', ?, 1, 1)",
  );
  insert.run('image', 'img_one', `${emulator.url}/media/blob/200000?seed=one`);
  insert.run('video', 'vid_one', `${emulator.url}/media/blob/1000?seed=v`);
  db.close();
});
afterAll(() => demo?.close());

describe('library channels', () => {
  it('downloads into the Demo folder of the library and serves the file', async () => {
    const queued = await call<{ state: string }[]>('library:download', { assets: [{ kind: 'image', id: 'img_one' }] });
    expect(queued[0]?.state).toBe('queued');
    await until(() =>
      downloads.some((d) => d.changed.some((i) => i.asset.id === 'img_one' && i.state === 'succeeded')),
    );
    expect((await stat(join(base, 'Library', 'Demo', 'images', 'img_one.jpg'))).size).toBe(200_000);
    const reply = await core.serveMedia({ path: 'Demo/images/img_one.jpg', method: 'HEAD' });
    expect(reply.status).toBe(200);
    expect(reply.headers['Content-Length']).toBe('200000');
    const list = await call<{ items: { state: string }[] }>('library:downloads', undefined);
    expect(list.items.map((i) => i.state)).toEqual(['succeeded']);
  });

  it('refuses to delete a video on the service and says why', async () => {
    const result = await call<{ refused: { reason: string }[] }>('library:delete-remote', {
      assets: [{ kind: 'video', id: 'vid_one' }],
    });
    expect(result.refused[0]?.reason).toMatch(/no way to delete a video/);
  });

  it('refuses hostile arguments before any work', async () => {
    const bad = await core.dispatch('library:download', { assets: [{ kind: 'image', id: '' }] });
    expect(bad.ok).toBe(false);
    const relative = await core.dispatch('library:move', { to: 'relative/path' });
    expect(relative.ok).toBe(false);
  });

  it('downloads the outputs of a finished job on its own (Auto-download on by default)', async () => {
    const job = await call<{ localId: number }>('jobs:submit', {
      kind: 'image',
      body: { modelID: 'imagea', prompt: 'auto download me', numImages: 1 },
    });
    expect(job.localId).toBeGreaterThan(0);
    emulator.control.advanceClock(60 * 60 * 1000);
    // The jobs engine polls on its own schedule (5 s for images); the library takes it from there.
    await until(
      () =>
        downloads.some((d) =>
          d.changed.some((i) => i.asset.kind === 'image' && i.asset.id !== 'img_one' && i.state === 'succeeded'),
        ),
      20_000,
    );
  }, 30_000);

  it('moves the library folder and keeps serving its files', async () => {
    const to = join(base, 'Moved', 'Library');
    const info = await call<LibraryMoveInfo>('library:move', { to });
    expect(info.state).toBe('done');
    expect(core.settings.get().libraryDir).toBe(to);
    expect(moves.some((m) => m.state === 'switching')).toBe(true);
    await expect(stat(join(base, 'Library'))).rejects.toThrow();
    expect((await core.serveMedia({ path: 'Demo/images/img_one.jpg', method: 'HEAD' })).status).toBe(200);
    // The queue runs again in the new folder.
    await call('library:remove-local', { assets: [{ kind: 'image', id: 'img_one' }] });
    await call('library:download', { assets: [{ kind: 'image', id: 'img_one' }] });
    await until(
      () =>
        downloads.filter((d) => d.changed.some((i) => i.asset.id === 'img_one' && i.state === 'succeeded')).length >= 2,
    );
    expect((await stat(join(to, 'Demo', 'images', 'img_one.jpg'))).size).toBe(200_000);
  });
});
