// Auth, API-Version, envelope and ownership rules over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './index.ts';
import { Api, createModel, smallPng, startTestEmulator } from './test-support.ts';

let emulator: RunningEmulator;
let api: Api;
let other: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
  other = new Api(emulator.url, 'other-key');
});
afterAll(() => emulator.close());

describe('authentication', () => {
  it('accepts a configured key and answers in the OK envelope', async () => {
    const res = await api.get('/presets');
    expect(res.http).toBe(200);
    expect(res.body.status).toBe('OK');
    expect(Array.isArray(res.body.result)).toBe(true);
  });

  it('refuses a request without Authorization with 401 NOK', async () => {
    const res = await new Api(emulator.url, null).get('/models');
    expect(res.http).toBe(401);
    expect(res.body).toEqual({ err: 'unauthorized', message: expect.any(String), result: null, status: 'NOK' });
  });

  it('refuses an unknown key with 401 and never echoes the key', async () => {
    const res = await new Api(emulator.url, 'not-a-key-123').get('/jobs');
    expect(res.http).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain('not-a-key-123');
  });

  it('refuses a non-Bearer scheme', async () => {
    const res = await fetch(`${emulator.url}/models`, {
      headers: { authorization: 'Basic demo-key', 'api-version': '1' },
    });
    expect(res.status).toBe(401);
  });

  it('protects every endpoint, including unknown paths', async () => {
    const anonymous = new Api(emulator.url, null);
    for (const [method, path] of [
      ['GET', '/models/x/images'],
      ['GET', '/videos'],
      ['GET', '/jobs/x'],
      ['POST', '/images/generation'],
      ['GET', '/nowhere'],
    ] as const) {
      expect((await anonymous.request(method, path, method === 'POST' ? {} : undefined)).http).toBe(401);
    }
  });
});

describe('API-Version', () => {
  it('requires the header', async () => {
    const res = await fetch(`${emulator.url}/models`, { headers: { authorization: 'Bearer demo-key' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ err: 'unsupported_api_version', status: 'NOK', result: null });
  });

  it('refuses any other version', async () => {
    const res = await api.get('/models', { 'api-version': '2' });
    expect(res.http).toBe(400);
    expect(res.body.message).toContain('API-Version');
  });
});

describe('envelope for framework-level errors', () => {
  it('answers unknown routes with 404 NOK', async () => {
    const res = await api.get('/does/not/exist');
    expect(res.http).toBe(404);
    expect(res.body.status).toBe('NOK');
  });

  it('answers broken JSON bodies with 400 NOK', async () => {
    const res = await fetch(`${emulator.url}/models`, {
      method: 'POST',
      headers: { ...api.headers(), 'content-type': 'application/json' },
      body: '{"modelType": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'NOK', result: null });
  });
});

describe('ownership', () => {
  it("answers 404 for another user's model, image, job and video", async () => {
    const modelID = await createModel(api);
    const upload = await api.upload(modelID, 'auxiliaryType', await smallPng());
    const imageID = upload.body.result.id as string;
    const job = await api.ok<{ jobId: string }>('POST', '/images/generation', { modelID: 'imagea', prompt: 'mine' });
    emulator.control.advanceClock(60_000);
    const imagesOfJob = await api.ok<{ images: { id: string }[] }>('GET', `/jobs/${job.jobId}`);

    expect((await other.get(`/models/${modelID}`)).http).toBe(404);
    expect((await other.get(`/models/${modelID}/images`)).http).toBe(404);
    expect((await other.get(`/models/${modelID}/train`)).http).toBe(404);
    expect((await other.delete(`/models/${modelID}`)).http).toBe(404);
    expect((await other.get(`/images/${imageID}`)).http).toBe(404);
    expect((await other.delete(`/images/${imagesOfJob.images[0]?.id}`)).http).toBe(404);
    expect((await other.get(`/jobs/${job.jobId}`)).http).toBe(404);
    expect((await other.upload(modelID, 'modelInput', await smallPng())).http).toBe(404);
    // ...while the owner still sees all of it.
    expect((await api.get(`/models/${modelID}`)).http).toBe(200);
    expect((await api.get(`/images/${imageID}`)).http).toBe(200);
  });

  it("keeps each user's lists apart", async () => {
    await api.ok('POST', '/images/generation', { modelID: 'imageb', prompt: 'only mine' });
    const theirs = await other.ok<{ jobs: { jobId: string }[] }>('GET', '/jobs');
    const mine = await api.ok<{ jobs: { jobId: string }[] }>('GET', '/jobs');
    expect(mine.jobs.length).toBeGreaterThan(0);
    expect(theirs.jobs).toEqual([]);
  });

  it('refuses generation from a model the caller does not own, naming the field', async () => {
    const modelID = await createModel(api);
    const res = await other.post('/images/generation', { modelID, prompt: 'steal' });
    expect(res.http).toBe(400);
    expect(res.body.message).toMatch(/^modelID: /);
  });
});
