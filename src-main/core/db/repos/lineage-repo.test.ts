// The family tree's queries on a real (migrated, in-memory) database, written through the cache's
// own write paths: an upscale, a video from a first frame, an image from a reference, a trained
// model's photos and results, a job's siblings and a "Generate again" of it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assetFieldsFromImage, assetFieldsFromVideo, modelFields } from '../../api/server-records.ts';
import type { AccountDb } from '../account-db.ts';
import { openMemoryCache } from '../test-support/test-cache.ts';
import { familyOf } from '../../handlers/family.ts';
import type { FamilyInfo } from '../../../contract/ipc/family.ts';

let cache: AccountDb;
beforeEach(() => {
  cache = openMemoryCache();
});
afterEach(() => cache.close());

// The media host and its signature may change between refreshes: a reference is matched by path.
const url = (kind: string, id: string, host = 'https://media.example', query = '?sig=1') =>
  `${host}/m/${kind}/${id}.${kind === 'image' ? 'png' : 'mp4'}${query}`;
let time = Date.parse('2026-01-01T00:00:00Z');

function image(id: string, extra: { data?: Record<string, unknown>; type?: string; modelID?: string } = {}) {
  time += 1000;
  const { data, type = 'output', modelID = 'imagea' } = extra;
  cache.assets.upsertFromServer(
    assetFieldsFromImage({
      id,
      url: url('image', id),
      modelID,
      type,
      createdAt: new Date(time).toISOString(),
      ...(data ? { data } : {}),
    }),
    time,
  );
}
function video(id: string, request: Record<string, unknown>) {
  time += 1000;
  cache.assets.upsertFromServer(
    assetFieldsFromVideo({
      id,
      url: url('video', id),
      modelID: 'videoa-3.1',
      type: 'output',
      jobId: `job_${id}`,
      createdAt: new Date(time).toISOString(),
    }),
    time,
  );
  cache.assets.recordGeneration('video', id, { jobId: `job_${id}`, prompt: 'moving', params: request });
}

const family = (kind: 'image' | 'video', id: string): FamilyInfo => {
  const row = cache.assets.get(kind, id);
  if (!row) throw new Error(`no ${kind} ${id}`);
  return familyOf(cache, row, (path) => `/media/${path}`);
};
const ids = (groups: FamilyInfo['parents']) =>
  Object.fromEntries(groups.map((g) => [g.relation, { ids: g.items.map((a) => a.id), total: g.total }]));

describe('the family tree of an asset', () => {
  it('links an upscale to its source both ways', () => {
    image('img_src', { data: { prompt: 'a fox', jobId: 'job_1' } });
    image('img_up', { data: { upscaledFrom: 'img_src', jobId: 'job_2' } });
    expect(ids(family('image', 'img_src').children)).toEqual({ upscale: { ids: ['img_up'], total: 1 } });
    expect(ids(family('image', 'img_up').parents)).toEqual({ 'upscaled-from': { ids: ['img_src'], total: 1 } });
  });

  it('finds the video made from an image as its first frame, under another host and signature', () => {
    image('img_frame');
    image('img_last');
    video('vid_1', {
      modelID: 'videoa-3.1',
      prompt: 'moving',
      referenceImages: [
        { url: url('image', 'img_frame', 'http://127.0.0.1:5123', '?token=abc'), role: 'first_frame' },
        { url: url('image', 'img_last'), role: 'last_frame' },
        { url: 'https://elsewhere.example/not-in-the-library.png', role: 'reference_image' },
      ],
    });
    expect(ids(family('image', 'img_frame').children)).toEqual({ video: { ids: ['vid_1'], total: 1 } });
    expect(ids(family('video', 'vid_1').parents)).toEqual({
      'first-frame': { ids: ['img_frame'], total: 1 },
      'last-frame': { ids: ['img_last'], total: 1 },
    });
  });

  it('finds the images made with an image as a reference, and forgets a reference the request no longer names', () => {
    image('img_ref');
    image('img_made', {
      data: { request: { modelID: 'imagea', prompt: 'x', referenceImageURLs: [url('image', 'img_ref')] } },
    });
    expect(ids(family('image', 'img_ref').children)).toEqual({ image: { ids: ['img_made'], total: 1 } });
    expect(ids(family('image', 'img_made').parents)).toEqual({ reference: { ids: ['img_ref'], total: 1 } });
    cache.assets.recordGeneration('image', 'img_made', { params: { modelID: 'imagea', prompt: 'x' } });
    expect(family('image', 'img_ref').children).toEqual([]);
  });

  it("goes from a trained model's photos through the model to its results, named and counted", () => {
    cache.models.upsertFromServer(
      modelFields({
        id: 'mdl_abc123',
        modelType: 'person',
        status: 'ready',
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
      }),
      1,
    );
    cache.models.setLabel('mdl_abc123', 'Anna');
    for (let i = 0; i < 3; i += 1) image(`img_photo${i}`, { type: 'modelInput', modelID: 'mdl_abc123' });
    image('img_aux', { type: 'auxiliaryType', modelID: 'mdl_abc123' });
    for (let i = 0; i < 30; i += 1) image(`img_result${i}`, { modelID: 'mdl_abc123' });
    const result = family('image', 'img_result5');
    expect(result.model).toEqual({ id: 'mdl_abc123', name: 'Anna' });
    expect(ids(result.parents)).toEqual({
      'training-photo': { ids: ['img_photo2', 'img_photo1', 'img_photo0'], total: 3 },
    });
    const photo = family('image', 'img_photo1');
    expect(photo.model?.name).toBe('Anna');
    const results = photo.children.find((g) => g.relation === 'model-result');
    // Bounded: the newest 24 of the 30, with the count of all.
    expect(results?.total).toBe(30);
    expect(results?.items.map((a) => a.id)).toEqual(Array.from({ length: 24 }, (_, i) => `img_result${29 - i}`));
    // A public model's result has no model node and no training photos.
    image('img_public');
    expect(family('image', 'img_public')).toMatchObject({ model: null, parents: [] });
  });

  it('gives the other outputs of the job and the results of a "Generate again" as siblings', () => {
    image('img_a1', { data: { jobId: 'job_a' } });
    image('img_a2', { data: { jobId: 'job_a' } });
    image('img_b1', { data: { jobId: 'job_b' } });
    image('img_c1', { data: { jobId: 'job_c' } });
    const first = cache.jobs.insert({
      kind: 'image',
      modelId: 'imagea',
      request: { modelID: 'imagea', prompt: 'x' },
      now: 1,
    });
    cache.jobs.update(first.local_id, { jobId: 'job_a', state: 'succeeded' }, 2);
    const again = cache.jobs.insert({
      kind: 'image',
      modelId: 'imagea',
      request: { modelID: 'imagea', prompt: 'x' },
      originJobId: 'job_a',
      now: 3,
    });
    cache.jobs.update(again.local_id, { jobId: 'job_b', state: 'succeeded' }, 4);
    expect(ids(family('image', 'img_a1').siblings)).toEqual({
      'same-job': { ids: ['img_a2'], total: 1 },
      variation: { ids: ['img_b1'], total: 1 },
    });
    expect(ids(family('image', 'img_b1').siblings)).toEqual({ variation: { ids: ['img_a2', 'img_a1'], total: 2 } });
    expect(family('image', 'img_c1').siblings).toEqual([]);
  });

  it('drops the references of an asset that leaves the cache', () => {
    image('img_frame');
    video('vid_1', {
      modelID: 'videoa-3.1',
      prompt: 'm',
      referenceImages: [{ url: url('image', 'img_frame'), role: 'first_frame' }],
    });
    expect(cache.assets.delete('video', 'vid_1')).toBe(true);
    expect(family('image', 'img_frame').children).toEqual([]);
    expect(cache.sqlite.prepare('SELECT count(*) AS n FROM asset_refs').get()).toEqual({ n: 0 });
  });

  it('"the whole family" filter holds the named assets and their relatives, and nothing else', () => {
    image('img_src', { data: { prompt: 'a fox', jobId: 'job_1' } });
    image('img_twin', { data: { prompt: 'a fox', jobId: 'job_1' } });
    image('img_up', { data: { upscaledFrom: 'img_src', jobId: 'job_2' } });
    image('img_other', { data: { prompt: 'a hen', jobId: 'job_3' } });
    video('vid_1', {
      modelID: 'videoa-3.1',
      prompt: 'm',
      referenceImages: [{ url: url('image', 'img_src'), role: 'first_frame' }],
    });
    video('vid_2', {
      modelID: 'videoa-3.1',
      prompt: 'm',
      referenceImages: [{ url: url('image', 'img_other'), role: 'first_frame' }],
    });
    const held = (familyOf: string[]) =>
      cache.assets
        .list({ filter: { familyOf }, limit: 50 })
        .rows.map((r) => r.id)
        .sort();
    expect(held(['image:img_src'])).toEqual(['img_src', 'img_twin', 'img_up', 'vid_1']);
    expect(held(['video:vid_1'])).toEqual(['img_src', 'vid_1']);
    expect(held(['image:img_up', 'image:img_other'])).toEqual(['img_other', 'img_src', 'img_up', 'vid_2']);
    expect(held(['image:img_gone'])).toEqual([]);
    // With other filters, as any field: only the videos of the family.
    expect(
      cache.assets.list({ filter: { familyOf: ['image:img_src'], kind: 'video' }, limit: 50 }).rows.map((r) => r.id),
    ).toEqual(['vid_1']);
  });
});
