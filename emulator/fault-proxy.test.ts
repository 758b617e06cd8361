// The fault proxy itself: each fault does what it says (seen from the client and from the
// emulator's own counters), holds keep answers back, media URLs cross the proxy, the dice repeat.
import { afterEach, describe, expect, it } from 'vitest';
import {
  BAD_NETWORK,
  decideFate,
  dice,
  NO_FAULTS,
  startFaultProxy,
  type FaultMix,
  type FaultProxy,
} from './fault-proxy.ts';
import { startEmulator, type RunningEmulator } from './index.ts';

const HEADERS = { authorization: 'Bearer demo-key', 'api-version': '1', 'content-type': 'application/json' };

let emulator: RunningEmulator | undefined;
let proxy: FaultProxy | undefined;

afterEach(async () => {
  await proxy?.close();
  await emulator?.close();
  proxy = emulator = undefined;
});

async function setUp(mix: Partial<FaultMix>, seed = 1): Promise<{ emulator: RunningEmulator; proxy: FaultProxy }> {
  emulator = await startEmulator({ seed: 5 });
  proxy = await startFaultProxy({ target: emulator.url, seed, mix: { ...NO_FAULTS, ...mix } });
  return { emulator, proxy };
}

const post = (base: string, path: string, body: unknown): Promise<Response> =>
  fetch(`${base}${path}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });

const received = (e: RunningEmulator, route: string): number => e.control.stats().byRoute[route] ?? 0;

describe('fault proxy', () => {
  it('forwards untouched without faults and points media URLs at itself', async () => {
    const { emulator: e, proxy: p } = await setUp({});
    const trigger = await post(p.url, '/images/generation', { modelID: 'imagea', prompt: 'proxy a' });
    expect(trigger.status).toBe(200);
    const { result } = (await trigger.json()) as { result: { jobId: string } };
    e.control.advanceClock(60_000);
    const job = (await (await fetch(`${p.url}/jobs/${result.jobId}`, { headers: HEADERS })).json()) as {
      result: { images: { url: string }[] };
    };
    const mediaUrl = job.result.images[0]!.url;
    expect(mediaUrl.startsWith(`${p.url}/media/`)).toBe(true);
    const bytes = new Uint8Array(await (await fetch(mediaUrl)).arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    const [first] = p.records();
    expect(first).toMatchObject({ method: 'POST', fate: 'forwarded', status: 200, upstreamStatus: 200 });
    expect(first!.body).toEqual({ modelID: 'imagea', prompt: 'proxy a' });
    expect(first!.answer).toMatchObject({ status: 'OK', result: { jobId: result.jobId } });
    expect(p.records().map((r) => r.fate)).toEqual(['forwarded', 'forwarded', 'forwarded']);
  });

  it('answers 503 with a NOK envelope itself: the emulator never sees the request', async () => {
    const { emulator: e, proxy: p } = await setUp({ serverError: 1 });
    const answer = await post(p.url, '/images/generation', { modelID: 'imagea', prompt: 'proxy b' });
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      err: 'service_unavailable',
      message: expect.any(String),
      result: null,
      status: 'NOK',
    });
    expect(received(e, 'POST /images/generation')).toBe(0);
    expect(p.records()[0]).toMatchObject({ fate: 'server-error', status: 503, upstreamStatus: null });
  });

  it('answers 429 with Retry-After: 2 itself', async () => {
    const { emulator: e, proxy: p } = await setUp({ rateLimit: 1 });
    const answer = await fetch(`${p.url}/jobs`, { headers: HEADERS });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(((await answer.json()) as { status: string }).status).toBe('NOK');
    expect(e.control.stats().total).toBe(0);
  });

  it('resets before forwarding (never arrived) and after forwarding (arrived, answer lost)', async () => {
    const { emulator: e, proxy: p } = await setUp({ resetBefore: 1 });
    await expect(post(p.url, '/images/generation', { modelID: 'imagea', prompt: 'proxy c' })).rejects.toThrow();
    expect(received(e, 'POST /images/generation')).toBe(0);
    p.setMix({ ...NO_FAULTS, resetAfter: 1 });
    await expect(post(p.url, '/images/generation', { modelID: 'imagea', prompt: 'proxy d' })).rejects.toThrow();
    expect(received(e, 'POST /images/generation')).toBe(1);
    const [before, after] = p.records();
    expect(before).toMatchObject({ fate: 'reset-before', status: null, upstreamStatus: null });
    expect(after).toMatchObject({ fate: 'reset-after', status: null, upstreamStatus: 200 });
    expect(after!.answer).toMatchObject({ result: { jobId: expect.stringMatching(/^job_/) } });
  });

  it('adds the latency the dice give, within the mix bounds', async () => {
    const { proxy: p } = await setUp({ latencyMs: { min: 150, max: 150 } });
    const started = performance.now();
    await fetch(`${p.url}/presets`, { headers: HEADERS });
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    expect(p.records()[0]!.latencyMs).toBe(150);
  });

  it('cuts a media transfer mid-body, with the full length announced', async () => {
    const { emulator: e, proxy: p } = await setUp({});
    const blob = `${p.url}/media/blob/200000?seed=3`;
    expect((await (await fetch(blob)).arrayBuffer()).byteLength).toBe(200_000);
    p.setMix({ ...NO_FAULTS, mediaCut: 1 });
    const cut = await fetch(`${p.url}/media/blob/200001?seed=3`);
    expect(cut.headers.get('content-length')).toBe('200001');
    await expect(cut.arrayBuffer()).rejects.toThrow();
    expect(p.records().at(-1)).toMatchObject({ fate: 'cut', media: true, upstreamStatus: 200 });
    // API routes are never cut, media never answered 503.
    p.setMix({ ...NO_FAULTS, mediaCut: 1, serverError: 0 });
    expect((await fetch(`${p.url}/presets`, { headers: HEADERS })).status).toBe(200);
    expect(e.control.stats().total).toBeGreaterThan(0);
  });

  it('holds the answers of the next N matching requests: they reach the emulator, the client never hears', async () => {
    const { emulator: e, proxy: p } = await setUp({});
    p.hold({ method: 'POST', pathPrefix: '/images/generation', count: 2 });
    const pending = [1, 2].map((i) =>
      post(p.url, '/images/generation', { modelID: 'imagea', prompt: `held ${i}` }).then(
        (r) => r.status,
        () => 'reset' as const,
      ),
    );
    await p.whenHeld(2, 10_000);
    expect(received(e, 'POST /images/generation')).toBe(2);
    const third = await post(p.url, '/images/generation', { modelID: 'imagea', prompt: 'not held' });
    expect(third.status).toBe(200);
    expect(
      p
        .held()
        .map((r) => (r.body as { prompt: string }).prompt)
        .sort(),
    ).toEqual(['held 1', 'held 2']);
    expect(p.held().every((r) => typeof (r.answer as { result: { jobId: string } }).result.jobId === 'string')).toBe(
      true,
    );
    p.dropHeld();
    expect(await Promise.all(pending)).toEqual(['reset', 'reset']);
    expect(() => p.hold({ method: 'POST', count: 0 })).toThrow(/count/);
  });

  it('repeats its fates for the same seed and the same requests, and differs for another seed', async () => {
    const run = async (seed: number): Promise<string[]> => {
      const { emulator: e, proxy: p } = await setUp(
        { ...BAD_NETWORK, serverError: 0.3, latencyMs: { min: 0, max: 5 } },
        seed,
      );
      for (let i = 0; i < 20; i += 1) await fetch(`${p.url}/presets?n=${i}`, { headers: HEADERS }).catch(() => null);
      const fates = p.records().map((r) => r.fate);
      await p.close();
      await e.close();
      proxy = emulator = undefined;
      return fates;
    };
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
  });
});

describe('fault dice', () => {
  it('hit each fault about as often as the mix says', () => {
    const counts = new Map<string, number>();
    const n = 20_000;
    for (let i = 0; i < n; i += 1) {
      const fate = decideFate(BAD_NETWORK, dice(3, `GET /jobs ${i}`), false);
      counts.set(fate, (counts.get(fate) ?? 0) + 1);
    }
    const share = (fate: string): number => (counts.get(fate) ?? 0) / n;
    expect(share('server-error')).toBeCloseTo(0.05, 2);
    expect(share('reset-before')).toBeCloseTo(0.02, 2);
    expect(share('rate-limited')).toBeCloseTo(0.02, 2);
    expect(share('reset-after')).toBe(0);
    expect(decideFate(BAD_NETWORK, 0.005, true)).toBe('cut');
    expect(decideFate(BAD_NETWORK, 0.5, true)).toBe('forwarded');
  });
});
