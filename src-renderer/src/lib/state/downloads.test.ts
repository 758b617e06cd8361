// The download list's state against a fake core: what "n downloading" counts (the queue's own
// figures, else the downloads under way: paused and ended ones are not), how downloads:changed
// patches the list, and that a large start is sent in calls the contract accepts.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { fakeCore, installFakeCore, ok, settle } from '../test-support/fake-core.ts';
import { downloadQueueRecord, downloadRecord } from '../test-support/records.ts';

const core = fakeCore();
installFakeCore(core);
const { downloads, MAX_ASSETS_PER_CALL } = await import('./downloads.svelte.ts');

const ref = (id: string): AssetRefInfo => ({ kind: 'image', id });

beforeEach(() => downloads.reset());

describe('downloads', () => {
  it('counts the downloads under way before the queue has said: waiting and moving, not paused or ended', async () => {
    const states = ['queued', 'preparing', 'downloading', 'paused', 'succeeded', 'failed'] as const;
    core.handle('library:download', ({ assets }) =>
      ok(assets.map((asset, i) => downloadRecord({ asset, state: states[i] ?? 'queued' }))),
    );
    await downloads.start(states.map((state) => ref(state)));
    expect(downloads.get(ref('paused'))?.state).toBe('paused');
    expect(downloads.pending).toBe(3);
  });

  it("takes the queue's own figures when it gives them, and its message", async () => {
    core.handle('library:downloads', () =>
      ok({
        queue: downloadQueueRecord({ active: 2, waiting: 5, state: 'paused', message: 'Paused: disk full.' }),
        items: [],
      }),
    );
    await downloads.load();
    expect(downloads.pending).toBe(7);
    expect(downloads.message).toBe('Paused: disk full.');
  });

  it('follows downloads:changed: changed items replace, removed ones go', async () => {
    const stop = downloads.listen();
    const queue = downloadQueueRecord({ active: 1 });
    core.emit('downloads:changed', {
      changed: [downloadRecord({ asset: ref('a'), state: 'queued' })],
      removed: [],
      queue,
    });
    core.emit('downloads:changed', {
      changed: [downloadRecord({ asset: ref('a'), state: 'downloading', progress: 0.5 })],
      removed: [],
      queue,
    });
    expect(downloads.get(ref('a'))?.progress).toBe(0.5);
    core.emit('downloads:changed', { changed: [], removed: [ref('a')], queue });
    expect(downloads.get(ref('a'))).toBeUndefined();
    stop();
  });

  it('sends a large start in calls of at most the contract limit, and counts what was queued', async () => {
    core.handle('library:download', ({ assets }) => ok(assets.map((asset) => downloadRecord({ asset }))));
    const refs = Array.from({ length: MAX_ASSETS_PER_CALL + 3 }, (_, i) => ref(`img_${i}`));
    const before = core.argsOf('library:download').length;
    const queued = await downloads.start(refs);
    await settle();
    expect(queued).toBe(refs.length);
    expect(
      core
        .argsOf('library:download')
        .slice(before)
        .map((args) => args.assets.length),
    ).toEqual([MAX_ASSETS_PER_CALL, 3]);
    expect(downloads.get(ref('img_5002'))?.state).toBe('queued');
  });
});
