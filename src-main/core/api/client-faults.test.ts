// The client under faults, against the emulator: local refusals that send nothing, 429 with
// Retry-After, 5xx bursts with growing jittered waits, bad and cut-off bodies, dropped and refused
// connections, timeouts, 401; and which requests are (never) repeated.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPortUrl } from './test-support/local-checks.ts';
import { AppError } from '../../contract/errors.ts';
import { ServiceError } from './errors.ts';
import { collectAll } from './pagination.ts';
import { DEFAULT_RETRY_POLICY } from './retry-policy.ts';
import type { ServiceClient } from './service-client.ts';
import { fixtureImage, routeCount, startClientHarness, type ClientHarness } from './test-support/client-harness.ts';

let h: ClientHarness;
let modelID: string;
beforeAll(async () => {
  h = await startClientHarness();
  modelID = (await h.client.createModel({ modelType: 'person' })).id;
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.emulator.control.clearFaults();
  h.emulator.control.resetStats();
  h.sleeps.length = 0;
});

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const faultOn = (method: string, path: string, rule: Record<string, unknown>) =>
  h.emulator.control.setFaults({ rules: [{ method, path, ...rule }] });

describe('requests refused locally never reach the service', () => {
  it('generation requests it cannot send, uploads, bad ids and list options send nothing', async () => {
    const { client, emulator } = h;
    // The model's rules are the core's (generation-request.ts); the client only refuses what has no
    // endpoint or is not a JSON object, in the same words.
    const kind = await failure(client.submit({ kind: 'sound', body: { prompt: 'x' } } as never));
    expect(kind.info).toMatchObject({
      code: 'validation',
      message: expect.stringContaining('kind: image | video | upscale'),
    });
    const body = await failure(client.submit({ kind: 'video', body: 'a fox' as never }));
    expect(body.info).toMatchObject({ code: 'validation', message: expect.stringContaining('must be a JSON object') });
    const text = await failure(
      client.uploadImage({
        modelID,
        type: 'modelInput',
        file: { name: 'cat.jpg', bytes: new TextEncoder().encode('<html>') },
      }),
    );
    expect(text.info).toMatchObject({ code: 'validation', field: 'file' });
    expect(text.message).toContain('"cat.jpg"');
    expect((await failure(client.getModel('..'))).info).toMatchObject({ code: 'invalid_argument', field: 'modelID' });
    expect((await failure(collectAll(client.listModelImages(modelID, { pageSize: 500 })))).info.field).toBe('pageSize');
    expect(emulator.control.stats().total).toBe(0);
  });

  it('a missing key is an auth error before sending', async () => {
    const client = h.makeClient({ apiKey: () => null });
    const error = await failure(client.listModels());
    expect(error.info.code).toBe('auth');
    expect(error.message).toMatch(/No API key is set/);
    expect(h.emulator.control.stats().total).toBe(0);
  });
});

describe('429 and Retry-After', () => {
  it('waits at least Retry-After before repeating a read', async () => {
    faultOn('GET', '/presets', { rateLimit: { count: 1, retryAfterSeconds: 2 } });
    expect((await h.client.listPresets()).length).toBeGreaterThan(0);
    expect(h.sleeps).toHaveLength(1);
    expect(h.sleeps[0]).toBeGreaterThanOrEqual(2000);
    expect(routeCount(h.emulator, 'GET /presets')).toBe(2);
  });

  it('really waits on the clock', async () => {
    const client = h.makeClient({ realSleep: true });
    faultOn('GET', '/presets', { rateLimit: { count: 1, retryAfterSeconds: 1 } });
    const started = performance.now();
    await client.listPresets();
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('hands a Retry-After beyond the cap back to the caller without waiting', async () => {
    faultOn('GET', '/jobs', { rateLimit: { count: 5, retryAfterSeconds: 120 } });
    const error = await failure(collectAll(h.client.listJobs()));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.info).toMatchObject({
      code: 'rate_limited',
      httpStatus: 429,
      retryAfterMs: 120_000,
      serviceErr: 'rate_limited',
    });
    expect(error.message).toMatch(/try again in 120 s/);
    expect(h.sleeps).toEqual([]);
    expect(routeCount(h.emulator, 'GET /jobs')).toBe(1);
  });

  it('never repeats a job-creating request, even on 429', async () => {
    faultOn('POST', '/images/generation', { rateLimit: { count: 1, retryAfterSeconds: 1 } });
    expect(
      (await failure(h.client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'fox' } }))).info,
    ).toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 1000,
    });
    expect(routeCount(h.emulator, 'POST /images/generation')).toBe(1);
    expect(h.sleeps).toEqual([]);
  });
});

describe('5xx bursts', () => {
  it('repeats reads with growing, capped, fully jittered waits', async () => {
    const client = h.makeClient({ random: () => 0.999 });
    faultOn('GET', '/presets', { serverError: { count: 3, status: 503 } });
    await client.listPresets();
    expect(h.sleeps).toEqual([499, 999, 1998]);
    expect(routeCount(h.emulator, 'GET /presets')).toBe(4);
  });

  it('draws each wait from [0, ceiling) and gives up with a server error after the last attempt', async () => {
    const draws = [0.1, 0.9, 0.3];
    const client = h.makeClient({ random: () => draws.shift() ?? 0 });
    faultOn('GET', '/presets', { serverError: { count: 10, status: 502 } });
    const error = await failure(client.listPresets());
    expect(error.info).toMatchObject({ code: 'server', httpStatus: 502, serviceErr: 'internal_error' });
    expect(h.sleeps).toEqual([50, 900, 600]);
    expect(routeCount(h.emulator, 'GET /presets')).toBe(DEFAULT_RETRY_POLICY.maxAttempts);
  });

  it('does not repeat generation, video, upscaling or training triggers', async () => {
    const { client, emulator } = h;
    emulator.control.setFaults({ rules: [{ serverError: { count: 10 } }] });
    expect(
      (await failure(client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'fox' } }))).info.code,
    ).toBe('server');
    expect(
      (await failure(client.submit({ kind: 'video', body: { modelID: 'videod-1.5', prompt: 'sea' } }))).info.code,
    ).toBe('server');
    expect((await failure(client.submit({ kind: 'upscale', body: { imageID: 'img_x' } }))).info.code).toBe('server');
    expect((await failure(client.trainModel(modelID))).info.code).toBe('server');
    expect(emulator.control.stats().total).toBe(4);
    expect(h.sleeps).toEqual([]);
  });
});

describe('bodies that are not the envelope', () => {
  it('malformed JSON is a malformed_response and is not repeated', async () => {
    faultOn('GET', '/presets', { malformedJson: { count: 1 } });
    const error = await failure(h.client.listPresets());
    expect(error.info).toMatchObject({ code: 'malformed_response', httpStatus: 200 });
    expect(error.message).toMatch(/not JSON/);
    expect(routeCount(h.emulator, 'GET /presets')).toBe(1);
  });

  it('a cut-off read is repeated; a cut-off trigger is reported, not repeated', async () => {
    faultOn('GET', '/jobs/:id', { truncateBody: { count: 1 } });
    const trigger = await h.client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'fox' } });
    expect((await h.client.getJob(trigger.jobId)).jobId).toBe(trigger.jobId);
    expect(routeCount(h.emulator, 'GET /jobs/:id')).toBe(2);

    faultOn('POST', '/images/generation', { truncateBody: { count: 1 } });
    const error = await failure(h.client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'fox' } }));
    expect(error.info.code).toBe('malformed_response');
    expect(error.message).toMatch(/cut off/);
    expect(routeCount(h.emulator, 'POST /images/generation')).toBe(2);
  });

  it('keeps cut-off reads typed when every attempt is cut off', async () => {
    faultOn('GET', '/models', { truncateBody: { count: 10 } });
    expect((await failure(h.client.listModels())).info.code).toBe('malformed_response');
    expect(routeCount(h.emulator, 'GET /models')).toBe(DEFAULT_RETRY_POLICY.maxAttempts);
  });
});

describe('connections', () => {
  it('a dropped connection is a network error; reads are repeated', async () => {
    faultOn('GET', '/presets', { dropConnection: { count: 1 } });
    await h.client.listPresets();
    expect(routeCount(h.emulator, 'GET /presets')).toBe(2);
    faultOn('GET', '/presets', { dropConnection: { count: 10 } });
    const error = await failure(h.client.listPresets());
    expect(error.info.code).toBe('network');
    expect((error as ServiceError).networkCode).toBe('ECONNRESET');
    expect((error as ServiceError).unsent).toBe(false);
  });

  it('an upload whose connection dropped is not repeated: the server may have it', async () => {
    faultOn('POST', '/images/upload', { dropConnection: { count: 1 } });
    const error = await failure(
      h.client.uploadImage({
        modelID,
        type: 'auxiliaryType',
        file: { name: 'a.png', bytes: await fixtureImage('png') },
      }),
    );
    expect(error.info.code).toBe('network');
    expect(routeCount(h.emulator, 'POST /images/upload')).toBe(1);
    expect(h.sleeps).toEqual([]);
  });

  it('a refused connection is repeated for reads and uploads, never for triggers', async () => {
    const client: ServiceClient = h.makeClient({ baseUrl: await closedPortUrl() });
    const read = await failure(client.getJob('job_1'));
    expect(read.info.code).toBe('network');
    expect((read as ServiceError).networkCode).toBe('ECONNREFUSED');
    expect((read as ServiceError).unsent).toBe(true);
    expect(read.message).toMatch(/connection was refused/);
    expect(h.sleeps).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts - 1);

    h.sleeps.length = 0;
    await failure(
      client.uploadImage({ modelID, type: 'auxiliaryType', file: { name: 'a.png', bytes: await fixtureImage('png') } }),
    );
    expect(h.sleeps).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts - 1);

    h.sleeps.length = 0;
    expect(
      (await failure(client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'fox' } }))).info.code,
    ).toBe('network');
    expect(h.sleeps).toEqual([]);
  });

  it('a slow answer times out as a network error', async () => {
    const client = h.makeClient({ timeouts: { responseMs: 100 }, retry: { maxAttempts: 1 } });
    faultOn('GET', '/presets', { latencyMs: 600 });
    const error = await failure(client.listPresets());
    expect(error.info.code).toBe('network');
    expect(error.message).toMatch(/timed out/);
  });
});

describe('cancelling', () => {
  it('an aborted call rejects with the abort reason, not a service error', async () => {
    const client = h.makeClient({ realSleep: true });
    faultOn('GET', '/presets', { latencyMs: 2000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const error = await client.listPresets({ signal: controller.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(ServiceError);
    expect((error as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('an abort during a retry wait stops the retries', async () => {
    const client = h.makeClient({ realSleep: true });
    faultOn('GET', '/presets', { rateLimit: { count: 5, retryAfterSeconds: 30 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(client.listPresets({ signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(routeCount(h.emulator, 'GET /presets')).toBe(1);
  });
});

describe('authentication', () => {
  it('401 is an auth error asking for a new key, not repeated', async () => {
    const client = h.makeClient({ apiKey: () => 'wrong-key' });
    const error = await failure(client.listModels());
    expect(error.info).toMatchObject({ code: 'auth', httpStatus: 401, serviceErr: 'unauthorized' });
    expect(error.message).toMatch(/Enter a new key in Settings/);
    expect(h.emulator.control.stats().total).toBe(1);
  });

  it('reads the key at request time, so a new key applies to the next request', async () => {
    let key = 'wrong-key';
    const client = h.makeClient({ apiKey: () => key });
    expect((await failure(client.listPresets())).info.code).toBe('auth');
    key = 'demo-key';
    expect((await client.listPresets()).length).toBeGreaterThan(0);
  });
});

describe('withRetry', () => {
  it('gives a sibling client its own policy (single attempts for background polls); the parent keeps its own', async () => {
    const once = h.client.withRetry({ maxAttempts: 1 });
    faultOn('GET', '/presets', { serverError: { count: 1, status: 503 } });
    const refused = await failure(once.listPresets());
    expect(refused.info.code).toBe('server');
    expect(routeCount(h.emulator, 'GET /presets')).toBe(1);
    faultOn('GET', '/presets', { serverError: { count: 1, status: 503 } });
    expect((await h.client.listPresets()).length).toBeGreaterThan(0);
    expect(routeCount(h.emulator, 'GET /presets')).toBe(3);
  });
});
