import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountDb } from '../account-db.ts';
import { assetFieldsFromImage, modelFields, presetFields } from '../../api/server-records.ts';
import { openMemoryCache } from '../test-support/test-cache.ts';

let cache: AccountDb;
beforeEach(() => {
  cache = openMemoryCache();
});
afterEach(() => cache.close());

const model = {
  id: 'm1',
  modelType: 'person',
  status: 'new',
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};

describe('ModelsRepo', () => {
  it('upserts server fields, keeps the label and training fields, and reports changes', () => {
    expect(cache.models.upsertFromServer(modelFields(model), 10)).toBe('inserted');
    expect(cache.models.setLabel('m1', '  Anna, studio  ')).toBe(true);
    expect(cache.models.setTraining('m1', { trainState: 'training', startedAt: 50, lastCheckedAt: 60 })).toBe(true);
    expect(cache.models.upsertFromServer(modelFields(model), 20)).toBe('unchanged');
    expect(cache.models.upsertFromServer(modelFields({ ...model, status: 'ready' }), 30)).toBe('updated');
    expect(cache.models.get('m1')).toMatchObject({
      status: 'ready',
      label: 'Anna, studio',
      train_state: 'training',
      training_started_at: 50,
      last_checked_at: 60,
      local_created_at: 10,
    });
    expect(cache.models.setLabel('m1', '   ')).toBe(true);
    expect(cache.models.get('m1')?.label).toBeNull();
    expect(cache.models.setLabel('nope', 'x')).toBe(false);
  });

  it('counts uploaded training inputs and references per model', () => {
    const upload = (id: string, type: string) =>
      cache.assets.upsertFromServer(assetFieldsFromImage({ id, modelID: 'm1', type, url: `https://x.test/${id}` }), 1);
    upload('a', 'modelInput');
    upload('b', 'modelInput');
    upload('c', 'auxiliaryType');
    upload('d', 'output');
    expect(cache.models.uploadedCounts().get('m1')).toEqual({ modelInput: 2, auxiliaryType: 1 });
  });
});

describe('PresetsRepo', () => {
  it('replaces the list, keeps the service order inside a category and counts changes', () => {
    const first = [
      { tag: 'p1', name: 'Film', category: 'Photo' },
      { tag: 'p2', name: 'Anime', category: 'Illustration' },
      { tag: 'p3', name: 'Raw', category: '' },
      { tag: 'p0', name: 'Studio', category: 'Photo' },
    ].map(presetFields);
    expect(cache.presets.replaceAll(first)).toEqual({ added: 4, updated: 0, removed: 0 });
    expect(cache.presets.list().map((p) => p.tag)).toEqual(['p2', 'p1', 'p0', 'p3']);
    expect(cache.presets.replaceAll(first)).toEqual({ added: 0, updated: 0, removed: 0 });
    const second = [
      first[0]!,
      { ...first[1]!, name: 'Anime 2' },
      presetFields({ tag: 'p9', name: '', category: 'New' }),
    ];
    expect(cache.presets.replaceAll(second)).toEqual({ added: 1, updated: 1, removed: 2 });
    expect(cache.presets.get('p9')?.name).toBe('p9');
  });
});

describe('SyncStateRepo', () => {
  it('stores JSON values with their time', () => {
    expect(cache.syncState.get('x')).toBeUndefined();
    cache.syncState.set('x', { at: 5, parts: ['models'] }, 100);
    expect(cache.syncState.get('x')).toEqual({ value: { at: 5, parts: ['models'] }, updatedAt: 100 });
    expect(cache.syncState.delete('x')).toBe(true);
  });
});

describe('JobsRepo', () => {
  it('writes the outbox row first, then the job id, poll schedule and outcome', () => {
    const row = cache.jobs.insert({
      kind: 'image',
      modelId: 'imagea',
      request: { modelID: 'imagea', prompt: 'x' },
      now: 100,
    });
    expect(row).toMatchObject({ state: 'submitting', job_id: null, created_at: 100, attempts: 0 });
    cache.jobs.update(
      row.local_id,
      { jobId: 'J1', state: 'queued', submittedAt: 110, nextPollAt: 5000, serviceStatus: 'queued' },
      110,
    );
    const other = cache.jobs.insert({ kind: 'video', modelId: 'videoa-3.1', request: {}, now: 120 });
    cache.jobs.update(other.local_id, { jobId: 'J2', state: 'running', nextPollAt: 9000 }, 120);
    expect(cache.jobs.nextPollAt()).toBe(5000);
    expect(cache.jobs.inFlight().map((j) => j.job_id)).toEqual(['J1', 'J2']);
    expect(cache.jobs.listInStates(['queued', 'running']).map((j) => j.job_id)).toEqual(['J1', 'J2']);
    expect(cache.jobs.counts()).toEqual({ submitting: 0, queued: 1, running: 1 });
    cache.jobs.update(
      row.local_id,
      { state: 'succeeded', finishedAt: 7000, outputs: [{ id: 'i1', url: 'u' }], nextPollAt: null },
      7000,
    );
    expect(cache.jobs.getByJobId('J1')).toMatchObject({
      state: 'succeeded',
      outputs: '[{"id":"i1","url":"u"}]',
      next_poll_at: null,
      updated_at: 7000,
    });
    expect(cache.jobs.recent(8000, 5).map((j) => j.job_id)).toEqual(['J2']);
    expect(cache.jobs.recent(7000, 5).map((j) => j.job_id)).toEqual(['J2', 'J1']);
    expect(cache.jobs.unnotified().map((j) => j.job_id)).toEqual(['J1']);
    cache.jobs.update(row.local_id, { serviceCreatedAt: 105, resubmittedAs: other.local_id }, 7100);
    expect(cache.jobs.get(row.local_id)).toMatchObject({ service_created_at: 105, resubmitted_as: other.local_id });
    expect(cache.jobs.markResubmitted(row.local_id, 99, 7200)).toBe(false);
    expect(cache.jobs.knownJobIds(['J1', 'J9'])).toEqual(new Set(['J1']));
    expect(() => cache.jobs.update(other.local_id, { jobId: 'J1' }, 1)).toThrow(/UNIQUE/);
  });
});

describe('UploadsRepo', () => {
  it('tracks an upload from queued to its service image id', () => {
    const up = cache.uploads.insert({
      modelId: 'm1',
      type: 'modelInput',
      sourcePath: '/tmp/a.png',
      fileName: 'a.png',
      bytes: 10,
      sha256: null,
      now: 1,
    });
    expect(up).toMatchObject({ state: 'queued', width: null, warning: null });
    expect(cache.uploads.inState('queued').map((u) => u.id)).toEqual([up.id]);
    expect(cache.uploads.pendingCount('m1', 'modelInput')).toBe(1);
    const done = cache.uploads.update(up.id, { state: 'succeeded', progress: 1, imageId: 'img-9', sha256: 'h1' }, 2);
    expect(done).toMatchObject({ state: 'succeeded', image_id: 'img-9', progress: 1 });
    expect(cache.uploads.inState('queued')).toEqual([]);
    expect(cache.uploads.knownHashes('m1', 'modelInput')).toEqual(new Set(['h1']));
    expect(cache.uploads.list('m2')).toEqual([]);
    expect(() => cache.uploads.update(up.id, { progress: 2 }, 3)).toThrow(/CHECK/);
  });
});
