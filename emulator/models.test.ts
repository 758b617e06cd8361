// Models: built-ins, create/update/read/delete, and training (400, 429, lifecycle on the virtual clock).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './index.ts';
import { Api, createModel, MINUTE, smallPng, startTestEmulator, uploadMany } from './test-support.ts';

interface ModelInfo {
  id: string;
  modelType: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
});
beforeEach(() => emulator.control.reset());
afterAll(() => emulator.close());

describe('GET /models', () => {
  it('adds the free and general models once, ready', async () => {
    const first = await api.ok<ModelInfo[]>('GET', '/models');
    expect(first.map((m) => [m.id, m.modelType, m.status])).toEqual([
      ['free-general', 'free', 'ready'],
      ['general-portrait', 'general', 'ready'],
    ]);
    const again = await api.ok<ModelInfo[]>('GET', '/models');
    expect(again).toHaveLength(2);
  });

  it('lists created models after the built-ins', async () => {
    const id = await createModel(api, 'style');
    const list = await api.ok<ModelInfo[]>('GET', '/models');
    expect(list.map((m) => m.id)).toEqual(['free-general', 'general-portrait', id]);
  });
});

describe('POST /models', () => {
  it('creates a new model with the default type', async () => {
    const model = await api.ok<ModelInfo>('POST', '/models', {});
    expect(model).toMatchObject({ modelType: 'person', status: 'new' });
    expect(Math.abs(Date.parse(model.createdAt) - emulator.control.now())).toBeLessThan(2_000);
    expect(model.id).toMatch(/^mdl_/);
  });

  it('accepts a request without a body', async () => {
    const res = await fetch(`${emulator.url}/models`, { method: 'POST', headers: api.headers() });
    expect(res.status).toBe(200);
  });

  it('refuses an unknown modelType, naming the field', async () => {
    const res = await api.post('/models', { modelType: 'dragon' });
    expect(res.http).toBe(400);
    expect(res.body.message).toMatch(/^modelType: /);
  });

  it('updates an existing model given its id', async () => {
    const id = await createModel(api);
    emulator.control.advanceClock(5_000);
    const updated = await api.ok<ModelInfo>('POST', '/models', { id, modelType: 'pet' });
    expect(updated.id).toBe(id);
    expect(updated.modelType).toBe('pet');
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(updated.createdAt));
  });

  it('answers 404 when updating a model that does not exist', async () => {
    expect((await api.post('/models', { id: 'mdl_missing' })).http).toBe(404);
  });
});

describe('GET/DELETE /models/{id}', () => {
  it('reads one model', async () => {
    const id = await createModel(api);
    expect((await api.ok<ModelInfo>('GET', `/models/${id}`)).status).toBe('new');
    expect((await api.get('/models/mdl_nope')).http).toBe(404);
  });

  it('deletes the model and all its images', async () => {
    const id = await createModel(api);
    const upload = await api.upload(id, 'modelInput', await smallPng());
    const res = await api.delete(`/models/${id}`);
    expect(res.http).toBe(200);
    expect(typeof res.body.result).toBe('string');
    expect((await api.get(`/models/${id}`)).http).toBe(404);
    expect((await api.get(`/images/${upload.body.result.id as string}`)).http).toBe(404);
    expect((await fetch(upload.body.result.url as string)).status).toBe(404);
    expect((await api.delete(`/models/${id}`)).http).toBe(404);
  });

  it('answers 404 for a public family id: its images are not listed, the job and the image are the way in', async () => {
    const job = await api.ok<{ jobId: string }>('POST', '/images/generation', { modelID: 'imagea', prompt: 'a kite' });
    emulator.control.advanceClock(10 * MINUTE);
    const done = await api.ok<{ status: string; images: { id: string }[] }>('GET', `/jobs/${job.jobId}`);
    expect(done.status).toBe('success');
    for (const id of ['imagea', 'imageb', 'videoa-3.1']) {
      const res = await api.get(`/models/${id}/images`);
      expect(res.http).toBe(404);
    }
    expect((await api.get(`/models/imagea`)).http).toBe(404);
    const image = await api.ok<{ id: string; modelID: string }>('GET', `/images/${done.images[0]!.id}`);
    expect(image.modelID).toBe('imagea');
  });
});

describe('GET /models/{id}/train', () => {
  it('refuses fewer than 12 modelInput images with 400', async () => {
    const id = await createModel(api);
    await uploadMany(api, id, 'modelInput', 11);
    await uploadMany(api, id, 'auxiliaryType', 3); // reference images do not count
    const res = await api.get(`/models/${id}/train`);
    expect(res.http).toBe(400);
    expect(res.body.message).toMatch(/^images: .*has 11/);
  });

  it('refuses to train a built-in model', async () => {
    await api.get('/models');
    expect((await api.get('/models/free-general/train')).http).toBe(400);
  });

  it('trains: new → training → ready after 20–25 virtual minutes, visible in the job list', async () => {
    const id = await createModel(api);
    await uploadMany(api, id, 'modelInput', 12);
    const res = await api.get<string>(`/models/${id}/train`);
    expect(res.http).toBe(200);
    expect(typeof res.body.result).toBe('string');
    expect((await api.ok<ModelInfo>('GET', `/models/${id}`)).status).toBe('training');
    expect((await api.get(`/models/${id}/train`)).http).toBe(400); // already training

    const jobs = await api.ok<{ jobs: { jobId: string; status: string; credits: number }[] }>('GET', '/jobs');
    expect(jobs.jobs).toHaveLength(1);
    expect(jobs.jobs[0]?.status).toBe('created');
    const jobId = jobs.jobs[0]?.jobId as string;

    emulator.control.advanceClock(10_000);
    expect((await api.ok<{ status: string }>('GET', `/jobs/${jobId}`)).status).toBe('queued');
    emulator.control.advanceClock(19 * MINUTE);
    expect((await api.ok<ModelInfo>('GET', `/models/${id}`)).status).toBe('training');
    expect((await api.ok<{ status: string }>('GET', `/jobs/${jobId}`)).status).toBe('running');
    emulator.control.advanceClock(6 * MINUTE);
    const model = await api.ok<ModelInfo>('GET', `/models/${id}`);
    expect(model.status).toBe('ready');
    expect(Date.parse(model.updatedAt)).toBeGreaterThan(Date.parse(model.createdAt) + 20 * MINUTE);
    const job = await api.ok<Record<string, unknown>>('GET', `/jobs/${jobId}`);
    expect(job).toMatchObject({ jobId, status: 'success' });
    expect(job).not.toHaveProperty('error');
  });

  it('answers 429 with Retry-After when two trainings already run', async () => {
    const ids = [await createModel(api), await createModel(api), await createModel(api)];
    for (const id of ids) await uploadMany(api, id, 'modelInput', 12);
    expect((await api.get(`/models/${ids[0]}/train`)).http).toBe(200);
    expect((await api.get(`/models/${ids[1]}/train`)).http).toBe(200);
    const refused = await api.get(`/models/${ids[2]}/train`);
    expect(refused.http).toBe(429);
    expect(refused.body.err).toBe('too_many_trainings');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api.ok<ModelInfo>('GET', `/models/${ids[2]}`)).status).toBe('new');
    // Another user is not limited by this user's trainings.
    const other = new Api(emulator.url, 'other-key');
    const theirs = await createModel(other);
    await uploadMany(other, theirs, 'modelInput', 12);
    expect((await other.get(`/models/${theirs}/train`)).http).toBe(200);
    // Once the first two finish, the third may start.
    emulator.control.advanceClock(26 * MINUTE);
    expect((await api.get(`/models/${ids[2]}/train`)).http).toBe(200);
  });

  it('fails a training when the jobFailure knob asks, with the model in status failed', async () => {
    emulator.control.setFaults({ jobFailure: { count: 1, kinds: ['training'], message: 'GPU fell over' } });
    const id = await createModel(api);
    await uploadMany(api, id, 'modelInput', 12);
    await api.ok('GET', `/models/${id}/train`);
    emulator.control.advanceClock(26 * MINUTE);
    expect((await api.ok<ModelInfo>('GET', `/models/${id}`)).status).toBe('failed');
    const { jobs } = await api.ok<{ jobs: { status: string; errorMessage: string; credits: number }[] }>(
      'GET',
      '/jobs',
    );
    expect(jobs[0]).toMatchObject({ status: 'failed', errorMessage: 'GPU fell over', credits: 0 });
  });
});
