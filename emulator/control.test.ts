// The control surface: clock, stats, reset over HTTP under /__emulator/ and the in-process mirror.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdForApiKey, type RunningEmulator } from './index.ts';
import { VirtualClock } from './clock.ts';
import { Api, HOUR, startTestEmulator } from './test-support.ts';

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
});
afterAll(() => emulator.close());

const control = async <T>(method: string, path: string, body?: unknown): Promise<{ http: number; result: T }> => {
  const res = await fetch(`${emulator.url}/__emulator${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { result: T };
  return { http: res.status, result: json.result };
};

describe('clock', () => {
  it('reads and advances virtual time over HTTP, needing no API key', async () => {
    const before = await control<{ nowMs: number; now: string; timeScale: number }>('GET', '/clock');
    expect(before.http).toBe(200);
    expect(before.result.timeScale).toBe(1);
    expect(Date.parse(before.result.now)).toBe(before.result.nowMs);
    const after = await control<{ nowMs: number }>('POST', '/clock/advance', { ms: 8 * HOUR });
    expect(after.result.nowMs - before.result.nowMs).toBeGreaterThanOrEqual(8 * HOUR);
    expect(after.result.nowMs - before.result.nowMs).toBeLessThan(8 * HOUR + 5_000);
    expect(emulator.control.now()).toBeGreaterThanOrEqual(after.result.nowMs);
  });

  it('refuses a negative or missing advance', async () => {
    expect((await control('POST', '/clock/advance', { ms: -1 })).http).toBe(400);
    expect((await control('POST', '/clock/advance', {})).http).toBe(400);
    expect(() => emulator.control.advanceClock(-5)).toThrow();
  });

  it('runs at timeScale × real time', () => {
    let real = 1_000;
    const clock = new VirtualClock({ timeScale: 60, startAt: 0, realNow: () => real });
    real += 1_000;
    expect(clock.now()).toBe(60_000);
    clock.advance(5);
    expect(clock.now()).toBe(60_005);
    expect(clock.realSecondsFor(120_000)).toBe(2);
    expect(() => new VirtualClock({ timeScale: 0 })).toThrow();
  });
});

describe('stats', () => {
  it('counts requests per route template and per user, and resets', async () => {
    emulator.control.resetStats();
    await api.get('/jobs/job_a');
    await api.get('/jobs/job_b');
    await new Api(emulator.url, 'other-key').get('/presets');
    await new Api(emulator.url, null).get('/presets');
    const stats = (await control<ReturnType<typeof emulator.control.stats>>('GET', '/stats')).result;
    expect(stats.total).toBe(4);
    expect(stats.byRoute).toEqual({ 'GET /jobs/:id': 2, 'GET /presets': 2 });
    expect(stats.byUser).toEqual({ [userIdForApiKey('demo-key')]: 2, [userIdForApiKey('other-key')]: 1, anonymous: 1 });
    expect(stats.byUserRoute[userIdForApiKey('demo-key')]).toEqual({ 'GET /jobs/:id': 2 });
    expect(JSON.stringify(stats)).not.toContain('demo-key');
    // Control requests are not counted, so a test can assert "no request was made".
    expect(emulator.control.stats().total).toBe(4);
    await control('DELETE', '/stats');
    expect(emulator.control.stats()).toMatchObject({ total: 0, byRoute: {} });
  });
});

describe('reset', () => {
  it('forgets every record, over HTTP as in process', async () => {
    const model = await api.ok<{ id: string }>('POST', '/models', {});
    await api.ok('POST', '/images/generation', { modelID: 'imagea', prompt: 'x' });
    expect((await control('POST', '/reset')).http).toBe(200);
    expect((await api.get(`/models/${model.id}`)).http).toBe(404);
    expect((await api.ok<{ jobs: unknown[] }>('GET', '/jobs')).jobs).toEqual([]);
    await api.ok('POST', '/models', {});
    await emulator.control.reset();
    expect(await api.ok<unknown[]>('GET', '/models')).toHaveLength(2); // only the built-ins again
  });

  it('can be switched off entirely', async () => {
    const { startEmulator } = await import('./index.ts');
    const closed = await startEmulator({ controlApi: false });
    try {
      expect((await fetch(`${closed.url}/__emulator/clock`)).status).toBe(404);
    } finally {
      await closed.close();
    }
  });
});
