// Deleting many on the service in the background against a fake core: a few per call with the
// progress counted between calls, every refusal kept with its reason, Cancel stopping the rest.
import { describe, expect, it } from 'vitest';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { fakeCore, installFakeCore, ok } from '../test-support/fake-core.ts';

const core = fakeCore();
installFakeCore(core);
const { remoteDeletion } = await import('./remote-deletion.svelte.ts');

const image = (i: number): AssetRefInfo => ({ kind: 'image', id: `img_${i}` });
const REFUSED = 'The service has no way to delete a video.';

describe('remote deletion in the background', () => {
  it('sends a few per call, moves the progress between calls and lists each refusal with its reason', async () => {
    const doneBefore: number[] = [];
    core.handle('library:delete-remote', ({ assets }) => {
      doneBefore.push(remoteDeletion.progress?.done ?? -1);
      return ok({
        deleted: assets.filter((a) => a.kind === 'image'),
        refused: assets.filter((a) => a.kind === 'video').map((asset) => ({ asset, reason: REFUSED })),
      });
    });
    const refs = [...Array.from({ length: 6 }, (_, i) => image(i)), { kind: 'video' as const, id: 'vid_1' }];
    const running = remoteDeletion.run(refs, []);
    expect(remoteDeletion.running).toBe(true);
    expect(await running).toBe(true);
    expect(core.argsOf('library:delete-remote').map((args) => args.assets.length)).toEqual([3, 3, 1]);
    expect(doneBefore).toEqual([0, 3, 6]);
    expect(remoteDeletion.progress).toMatchObject({ total: 7, done: 7, deleted: 6, finished: true });
    expect(remoteDeletion.progress?.failures).toEqual([{ name: 'A video', reason: REFUSED }]);
    remoteDeletion.dismiss();
    expect(remoteDeletion.progress).toBeNull();
  });

  it('Cancel stops what was not sent yet', async () => {
    core.calls.length = 0;
    core.handle('library:delete-remote', ({ assets }) => {
      if (core.argsOf('library:delete-remote').length === 2) remoteDeletion.cancel();
      return ok({ deleted: assets, refused: [] });
    });
    expect(
      await remoteDeletion.run(
        Array.from({ length: 12 }, (_, i) => image(i)),
        [],
      ),
    ).toBe(true);
    expect(core.argsOf('library:delete-remote')).toHaveLength(2);
    // Nothing failed: the line went with its toast.
    expect(remoteDeletion.progress).toBeNull();
  });
});
