// Fault knobs over real HTTP: latency, 429, 5xx, drops, truncation, bad JSON, media cuts, job/download failures.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseFaultConfig } from './faults.ts';
import { assembleEmulator, startEmulator, type RunningEmulator } from './index.ts';
import { isLoopbackAddress } from './server.ts';
import { Api, MINUTE, startTestEmulator } from './test-support.ts';

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
});
beforeEach(() => emulator.control.reset());
afterAll(() => emulator.close());

const raw = (path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${emulator.url}${path}`, {
    ...init,
    headers: { ...api.headers(), ...(init.headers as Record<string, string>) },
  });

describe('latency', () => {
  it('delays matching routes only', async () => {
    emulator.control.setFaults({ rules: [{ method: 'GET', path: '/presets', latencyMs: 200 }] });
    let started = performance.now();
    expect((await api.get('/presets')).http).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    started = performance.now();
    await api.get('/models');
    expect(performance.now() - started).toBeLessThan(150);
  });
});

describe('429 with Retry-After', () => {
  it('answers the next N matching requests with 429 NOK, then recovers', async () => {
    emulator.control.setFaults({ rules: [{ path: '/jobs', rateLimit: { count: 2, retryAfterSeconds: 7 } }] });
    for (let i = 0; i < 2; i += 1) {
      const res = await api.get('/jobs');
      expect(res.http).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(res.body).toMatchObject({ err: 'rate_limited', status: 'NOK', result: null });
    }
    expect((await api.get('/jobs')).http).toBe(200);
    expect(emulator.control.faults().rules?.[0]?.rateLimit?.count).toBe(0);
  });

  it('fires by probability, repeatably for the same seed', async () => {
    const pattern = async (): Promise<number[]> => {
      const e = await startEmulator({ seed: 42, faults: { rules: [{ rateLimit: { probability: 0.5 } }] } });
      const client = new Api(e.url);
      const codes: number[] = [];
      for (let i = 0; i < 24; i += 1) codes.push((await client.get('/presets')).http);
      await e.close();
      return codes;
    };
    const first = await pattern();
    expect(first).toEqual(await pattern());
    expect(first).toContain(429);
    expect(first).toContain(200);
  });
});

describe('5xx bursts', () => {
  it('answers a burst of N server errors with the chosen status', async () => {
    emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', serverError: { count: 3, status: 502 } }],
    });
    const body = { modelID: 'imagea', prompt: 'x' };
    for (let i = 0; i < 3; i += 1) {
      const res = await api.post('/images/generation', body);
      expect(res.http).toBe(502);
      expect(res.body.status).toBe('NOK');
    }
    expect((await api.post('/images/generation', body)).http).toBe(200);
    // The refused requests created nothing.
    expect((await api.ok<{ jobs: unknown[] }>('GET', '/jobs')).jobs).toHaveLength(1);
  });
});

describe('broken connections and bodies', () => {
  it('drops the connection without an answer', async () => {
    emulator.control.setFaults({ rules: [{ path: '/models', dropConnection: { count: 1 } }] });
    await expect(api.get('/models')).rejects.toThrow();
    expect((await api.get('/models')).http).toBe(200);
  });

  it('truncates a body: headers promise more than arrives', async () => {
    emulator.control.setFaults({ rules: [{ path: '/presets', truncateBody: { count: 1 } }] });
    const res = await raw('/presets');
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect((await api.get('/presets')).http).toBe(200);
  });

  it('sends a complete body that is not JSON', async () => {
    emulator.control.setFaults({ rules: [{ path: '/presets', malformedJson: { count: 1 } }] });
    const res = await raw('/presets');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const text = await res.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('cuts media after N bytes while Content-Length announces the whole file', async () => {
    emulator.control.setFaults({ rules: [{ path: '/media/*', cutMediaAfterBytes: { bytes: 100_000, count: 1 } }] });
    const cut = await fetch(`${emulator.url}/media/blob/1000000?seed=cut`);
    expect(cut.headers.get('content-length')).toBe('1000000');
    let received = 0;
    const reader = cut.body?.getReader();
    await expect(
      (async () => {
        for (;;) {
          const chunk = await reader?.read();
          if (!chunk || chunk.done) return;
          received += chunk.value.length;
        }
      })(),
    ).rejects.toThrow();
    expect(received).toBe(100_000);
    const whole = await fetch(`${emulator.url}/media/blob/1000000?seed=cut`);
    expect((await whole.arrayBuffer()).byteLength).toBe(1_000_000);
  });
});

describe('scoping', () => {
  it('a rule for a route template leaves other routes alone', async () => {
    emulator.control.setFaults({ rules: [{ method: 'GET', path: '/jobs/:id', serverError: {} }] });
    expect((await api.get('/jobs/job_x')).http).toBe(503);
    expect((await api.get('/jobs')).http).toBe(200);
    expect((await api.post('/models', {})).http).toBe(200);
    emulator.control.clearFaults();
    expect((await api.get('/jobs/job_x')).http).toBe(404);
  });

  it('a rule without method and path is global', async () => {
    emulator.control.setFaults({ rules: [{ serverError: { count: 2 } }] });
    expect((await api.get('/presets')).http).toBe(503);
    expect((await api.get('/videos')).http).toBe(503);
    expect((await api.get('/videos')).http).toBe(200);
  });
});

describe('job failures', () => {
  it('fails the next N jobs of the chosen kinds', async () => {
    emulator.control.setFaults({ jobFailure: { count: 1, kinds: ['video'] } });
    const image = await api.ok<{ jobId: string }>('POST', '/images/generation', { modelID: 'imagea', prompt: 'fine' });
    const video1 = await api.ok<{ jobId: string }>('POST', '/videos/generation', {
      modelID: 'videod-1.5',
      prompt: 'fails',
    });
    const video2 = await api.ok<{ jobId: string }>('POST', '/videos/generation', {
      modelID: 'videod-1.5',
      prompt: 'fine',
    });
    emulator.control.advanceClock(10 * MINUTE);
    const status = async (id: string): Promise<Record<string, unknown>> => api.ok('GET', `/jobs/${id}`);
    expect((await status(image.jobId)).status).toBe('success');
    expect(await status(video1.jobId)).toMatchObject({ status: 'failed', error: expect.stringContaining('video') });
    expect((await status(video2.jobId)).status).toBe('success');
  });
});

describe('fault configuration', () => {
  it('is set, read and cleared through the HTTP control API', async () => {
    const put = await fetch(`${emulator.url}/__emulator/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ path: '/presets', rateLimit: { count: 1 } }] }),
    });
    expect(put.status).toBe(200);
    expect((await api.get('/presets')).http).toBe(429);
    const read = (await (await fetch(`${emulator.url}/__emulator/faults`)).json()) as {
      result: { rules: { rateLimit: { count: number } }[] };
    };
    expect(read.result.rules[0]?.rateLimit.count).toBe(0);
    await fetch(`${emulator.url}/__emulator/faults`, { method: 'DELETE' });
    expect(emulator.control.faults()).toEqual({});
  });

  it('refuses invalid configurations, naming the setting', async () => {
    const res = await fetch(`${emulator.url}/__emulator/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ rateLimit: { probability: 2 } }] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('rules[0].rateLimit.probability');
    expect(() => parseFaultConfig({ rules: [{ latency: 5 }] })).toThrow(/rules\[0\]\.latency/);
    expect(() => parseFaultConfig({ jobFailure: { kinds: ['cooking'] } })).toThrow(/jobFailure\.kinds/);
    expect(() => emulator.control.setFaults({ rules: [{ serverError: { status: 404 } }] })).toThrow(/status/);
  });
});

describe('control API access', () => {
  it('answers loopback clients and refuses others with 403', async () => {
    const { app } = assembleEmulator({ seed: 1 });
    try {
      const local = await app.inject({ method: 'GET', url: '/__emulator/clock', remoteAddress: '127.0.0.1' });
      expect(local.statusCode).toBe(200);
      const remote = await app.inject({ method: 'GET', url: '/__emulator/clock', remoteAddress: '203.0.113.9' });
      expect(remote.statusCode).toBe(403);
      expect(remote.json()).toMatchObject({ err: 'forbidden', status: 'NOK' });
      const reset = await app.inject({ method: 'POST', url: '/__emulator/reset', remoteAddress: '192.0.2.50' });
      expect(reset.statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  it('knows which addresses are loopback', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.8.9.10')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('10.1.2.3')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });
});
