// The trash:* channels (and library:remove-local, which fills the trash) through a real core on the
// demo account, the emulator in-process: removed copies lie in Demo/.trash with their size, come
// back as downloaded and served, go for good when emptied, and travel with a library move.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../emulator/index.ts';
import type { AssetInfo, AssetsChangedInfo } from '../../contract/ipc/assets.ts';
import type { AssetRefInfo, DownloadsChangedInfo, RemoveLocalInfo } from '../../contract/ipc/library.ts';
import type { TrashEmptyInfo, TrashListInfo, TrashRestoreInfo, TrashSummaryInfo } from '../../contract/ipc/trash.ts';
import type { Core } from '../core.ts';
import { accountDatabasePath } from '../db/account-path.ts';
import { openDatabase } from '../db/database.ts';
import { startDemoCore, until, type DemoCore } from '../test-support/demo-core.ts';

let demo: DemoCore;
let emulator: RunningEmulator;
let core: Core;
let base: string;
const downloads: DownloadsChangedInfo[] = [];
const trashEvents: TrashSummaryInfo[] = [];
const assetEvents: AssetsChangedInfo[] = [];
const A = { kind: 'image', id: 'img_a' } as const;
const B = { kind: 'image', id: 'img_b' } as const;
const libraryDir = () => core.settings.get().libraryDir;

async function call<T>(channel: string, args: unknown): Promise<T> {
  const result = await core.dispatch(channel, args);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}

const onDisk = (relative: string) =>
  stat(join(libraryDir(), relative)).then(
    (s) => s.size,
    () => null,
  );
const fileState = async (ref: AssetRefInfo) => (await call<AssetInfo>('assets:get', ref)).file.state;

async function downloadBoth(): Promise<void> {
  const done = () =>
    [A.id, B.id].every((id) =>
      downloads.some((d) => d.changed.some((i) => i.asset.id === id && i.state === 'succeeded')),
    );
  downloads.length = 0;
  await call('library:download', { assets: [A, B] });
  await until(done, 40_000);
}

beforeAll(async () => {
  demo = await startDemoCore({ emulator: { seed: 32 }, name: 'core-trash', memoryStore: true });
  ({ emulator, core, base } = demo);
  core.settings.update({ libraryDir: join(base, 'Library') });
  core.events.subscribe((event, payload) => {
    if (event === 'downloads:changed') downloads.push(payload as DownloadsChangedInfo);
    if (event === 'trash:changed') trashEvents.push(payload as TrashSummaryInfo);
    if (event === 'assets:changed') assetEvents.push(payload as AssetsChangedInfo);
  });
  await call('account:use-demo', undefined);
  const db = openDatabase(accountDatabasePath(join(base, 'data'), 'demo'));
  const insert = db.prepare(
    "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES (?, ?, 'generated', ?, 1, 1)",
  );
  insert.run('image', A.id, `${emulator.url}/media/blob/3000?seed=a`);
  insert.run('image', B.id, `${emulator.url}/media/blob/5000?seed=b`);
  db.close();
  await downloadBoth();
});
afterAll(() => demo?.close());

// Downloads on a loaded machine (two cores shared with parallel work) may take a while: generous limits.
describe('trash channels', { timeout: 60_000 }, () => {
  it('remove-local moves the copies into the trash: remote in the library, listed with size and days left', async () => {
    assetEvents.length = 0;
    const removed = await call<RemoveLocalInfo>('library:remove-local', { assets: [A, B] });
    expect(removed).toEqual({ removed: [A, B], failed: [] });
    expect(await onDisk('Demo/images/img_a.jpg')).toBeNull();
    expect(await onDisk('Demo/.trash/images/img_a.jpg')).toBe(3000);
    expect(await onDisk('Demo/.trash/images/img_b.jpg')).toBe(5000);
    expect(await fileState(A)).toBe('remote');
    expect(assetEvents.some((e) => e.reason === 'delete' && e.assets?.some((r) => r.id === A.id))).toBe(true);
    expect(trashEvents.at(-1)).toEqual({ count: 2, bytes: 8000 });

    expect(await call<TrashSummaryInfo>('trash:summary', undefined)).toEqual({ count: 2, bytes: 8000 });
    const list = await call<TrashListInfo>('trash:list', undefined);
    expect(list.count).toBe(2);
    expect(list.entries.map((e) => [e.asset.id, e.bytes, e.daysLeft])).toEqual(
      expect.arrayContaining([
        [A.id, 3000, 30],
        [B.id, 5000, 30],
      ]),
    );
    const entry = list.entries.find((e) => e.asset.id === A.id)!;
    expect(Date.parse(entry.expiresAt) - Date.parse(entry.trashedAt)).toBe(30 * 24 * 60 * 60 * 1000);
    // The trashed file itself can be shown (served from the library).
    expect(entry.fileUrl).toBe('/media/Demo/.trash/images/img_a.jpg');
    expect((await core.serveMedia({ path: 'Demo/.trash/images/img_a.jpg', method: 'HEAD' })).status).toBe(200);
  });

  it('restore puts a copy back: downloaded again and served; an asset not in the trash is named', async () => {
    trashEvents.length = 0;
    const restored = await call<TrashRestoreInfo>('trash:restore', { assets: [A, { kind: 'image', id: 'img_none' }] });
    expect(restored.restored).toEqual([A]);
    expect(restored.failed).toEqual([{ asset: { kind: 'image', id: 'img_none' }, reason: 'It is not in the trash.' }]);
    expect(await fileState(A)).toBe('downloaded');
    const info = await call<AssetInfo>('assets:get', A);
    expect(info.file.bytes).toBe(3000);
    expect((await core.serveMedia({ path: 'Demo/images/img_a.jpg', method: 'HEAD' })).status).toBe(200);
    expect(await onDisk('Demo/.trash/images/img_a.jpg')).toBeNull();
    expect(trashEvents.at(-1)).toEqual({ count: 1, bytes: 5000 });
  });

  it('restoring a copy that was downloaded again meanwhile only drops the entry', async () => {
    downloads.length = 0;
    await call('library:download', { assets: [B] });
    await until(
      () => downloads.some((d) => d.changed.some((i) => i.asset.id === B.id && i.state === 'succeeded')),
      40_000,
    );
    const restored = await call<TrashRestoreInfo>('trash:restore', { assets: [B] });
    expect(restored).toEqual({ restored: [], alreadyLocal: [B], failed: [] });
    expect(await fileState(B)).toBe('downloaded');
    expect(await onDisk('Demo/.trash/images/img_b.jpg')).toBeNull();
    expect(await call<TrashSummaryInfo>('trash:summary', undefined)).toEqual({ count: 0, bytes: 0 });
  });

  it('empty deletes the trashed files for good: chosen ones, then all', async () => {
    await call('library:remove-local', { assets: [A, B] });
    expect(await call<TrashEmptyInfo>('trash:empty', { assets: [A] })).toEqual({ removed: 1, bytes: 3000 });
    expect(await onDisk('Demo/.trash/images/img_a.jpg')).toBeNull();
    expect(await onDisk('Demo/.trash/images/img_b.jpg')).toBe(5000);
    expect(await call<TrashEmptyInfo>('trash:empty', undefined)).toEqual({ removed: 1, bytes: 5000 });
    expect(await onDisk('Demo/.trash/images/img_b.jpg')).toBeNull();
    expect(trashEvents.at(-1)).toEqual({ count: 0, bytes: 0 });
    // The assets stay on the service, without local copies.
    expect(await fileState(A)).toBe('remote');
  });

  it('carries the trash along when the library folder moves', async () => {
    await downloadBoth();
    await call('library:remove-local', { assets: [A] });
    const to = join(base, 'Moved', 'Library');
    expect((await call<{ state: string }>('library:move', { to })).state).toBe('done');
    expect(await onDisk('Demo/.trash/images/img_a.jpg')).toBe(3000);
    expect((await call<TrashRestoreInfo>('trash:restore', { assets: [A] })).restored).toEqual([A]);
    expect(await onDisk('Demo/images/img_a.jpg')).toBe(3000);
  });

  it('refuses bad arguments before any work', async () => {
    const empty = await core.dispatch('trash:restore', { assets: [] });
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.error.code).toBe('invalid_argument');
    const wrong = await core.dispatch('trash:empty', { assets: [{ kind: 'model', id: 'x' }] });
    expect(wrong.ok).toBe(false);
    expect(await call<TrashSummaryInfo>('trash:summary', undefined)).toEqual({ count: 0, bytes: 0 });
  });
});
