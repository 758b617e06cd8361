// assets:family through the real dispatcher, over a cache filled by a real refresh from the emulator:
// an image, its upscale and a video made with it as the first frame are one family; bad input is
// refused with the field named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import type { FamilyInfo } from '../../contract/ipc/family.ts';
import { openTestSession, type TestSession } from '../account/test-support/test-session.ts';
import { createDispatcher, type Dispatch, type Handlers } from '../dispatch.ts';
import { createEventBus } from '../events.ts';
import { browserMediaUrl } from '../library/library-host.ts';
import { createAccountSyncer } from '../sync/account-syncer.ts';
import { familyHandlers } from './family.ts';
import { answered } from '../test-support/dispatch-results.ts';

let emulator: RunningEmulator;
let session: TestSession;
let dispatch: Dispatch;
const ids: { image: string; upscale: string; video: string } = { image: '', upscale: '', video: '' };

const value = <T>(channel: string, args?: unknown) => answered<T>(dispatch, channel, args);

beforeAll(async () => {
  emulator = await startEmulator({ seed: 11 });
  session = openTestSession(emulator.url);
  const { client } = session;
  const made = await client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'a lighthouse at dusk' } });
  emulator.control.advanceClock(10 * 60_000);
  const image = (await client.getJob(made.jobId)).images?.[0];
  if (!image) throw new Error('the emulator made no image');
  ids.image = image.id;
  const upscale = await client.submit({ kind: 'upscale', body: { imageID: image.id } });
  const clip = await client.submit({
    kind: 'video',
    body: {
      modelID: 'videoa-3.1',
      prompt: 'the beam sweeps the sea',
      referenceImages: [{ url: image.url, role: 'first_frame' }],
    },
  });
  emulator.control.advanceClock(30 * 60_000);
  ids.upscale = (await client.getJob(upscale.jobId)).images?.[0]?.id ?? '';
  ids.video = (await client.getJob(clip.jobId)).videos?.[0]?.id ?? '';
  const syncer = createAccountSyncer(session, createEventBus());
  await syncer.refresh();
  dispatch = createDispatcher(
    familyHandlers({ cache: () => session.cache, mediaUrlFor: browserMediaUrl }) as unknown as Handlers,
    (channel, error) => {
      throw new Error(`unexpected failure in ${channel}: ${String(error)}`);
    },
  );
});
afterAll(async () => {
  session.close();
  await emulator.close();
});

describe('assets:family', () => {
  it("shows an image's upscale and the video made from it as its children", async () => {
    const family = await value<FamilyInfo>('assets:family', { kind: 'image', id: ids.image });
    expect(family.self.id).toBe(ids.image);
    expect(family.parents).toEqual([]);
    expect(family.children.map((g) => [g.relation, g.items.map((a) => a.id), g.total])).toEqual([
      ['upscale', [ids.upscale], 1],
      ['video', [ids.video], 1],
    ]);
  });

  it('shows the image as the parent of its upscale and of the video', async () => {
    const upscale = await value<FamilyInfo>('assets:family', { kind: 'image', id: ids.upscale });
    expect(upscale.parents.map((g) => [g.relation, g.items.map((a) => a.id)])).toEqual([
      ['upscaled-from', [ids.image]],
    ]);
    const video = await value<FamilyInfo>('assets:family', { kind: 'video', id: ids.video });
    expect(video.parents.map((g) => [g.relation, g.items.map((a) => a.id)])).toEqual([['first-frame', [ids.image]]]);
    // Each relative carries what a tile needs: its name's facts and its shape.
    expect(video.parents[0]?.items[0]).toMatchObject({ prompt: 'a lighthouse at dusk', kind: 'image' });
    expect(video.parents[0]?.items[0]?.width).toBeGreaterThan(0);
  });

  it('refuses an asset it does not hold, and bad input, naming the field', async () => {
    expect(await dispatch('assets:family', { kind: 'image', id: 'img_none' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', field: 'id' },
    });
    expect(await dispatch('assets:family', { kind: 'model', id: ids.image })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'kind' },
    });
    expect(await dispatch('assets:family', { kind: 'image' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'id' },
    });
  });
});
