// A hostile or broken Retry-After must not stop background work for good: an unreasonable one
// falls back to the engine's own backoff, a stored wait never exceeds the backoff's maximum
// (also when it was stored by an older version, read back at start-up), and "Check now" clears it.
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_BACKOFF, retryDelay } from '../api/backoff.ts';
import { imageBody, pollRequests, startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';
import { createManualTime } from './test-support/manual-time.ts';
import { DEFAULT_LOOP_OPTIONS, WallClockLoop, type GateStore } from './wall-clock-loop.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CAP = DEFAULT_LOOP_OPTIONS.backoff.capMs;

describe('Retry-After limits', () => {
  it('never waits longer than the backoff maximum, whatever Retry-After says', () => {
    const random = () => 0.99;
    for (const retryAfterMs of [1, 30_000, CAP, CAP + 1, 99_999_999_000, Number.MAX_SAFE_INTEGER]) {
      const delay = retryDelay({ code: 'rate_limited', message: 'busy', retryAfterMs }, 1, random, BACKGROUND_BACKOFF);
      expect(delay, `Retry-After ${retryAfterMs} ms`).toBeLessThanOrEqual(BACKGROUND_BACKOFF.capMs);
      expect(delay).toBeGreaterThan(0);
    }
    // A reasonable one is still a floor.
    expect(retryDelay({ code: 'rate_limited', message: 'busy', retryAfterMs: 45_000 }, 1, () => 0)).toBe(45_000);
  });

  it('Retry-After: 99999999 does not stop checking jobs: the next check comes within the backoff maximum', async () => {
    h = await startEngineHarness();
    h.engine.start();
    for (let i = 0; i < 3; i += 1) await h.engine.submit({ kind: 'image', body: imageBody(`a cat ${i}`) });
    h.emulator.control.setFaults({
      rules: [{ method: 'GET', path: '/jobs', rateLimit: { count: 1, retryAfterSeconds: 99_999_999 } }],
    });
    h.emulator.control.resetStats();
    await h.advance(5_000);
    expect(h.rounds.at(-1)?.failure?.code).toBe('rate_limited');
    const limitedAt = h.time.now();
    expect(h.engine.notBefore - limitedAt).toBeLessThanOrEqual(CAP);
    // What the status bar is told is what the engine will wait: no more than the maximum.
    const said = h.recorded.filter((e) => e.event === 'service:rate-limited').map((e) => e.payload);
    expect(said).toEqual([{ source: 'jobs', retryAfterMs: h.engine.notBefore - limitedAt }]);
    for (let waited = 0; waited <= CAP + 10_000; waited += 10_000) await h.advance(10_000);
    expect(pollRequests(h.emulator).total).toBeGreaterThan(1);
  });

  it('clamps a stored gate on restart (one saved by an older version or a wrong clock)', async () => {
    h = await startEngineHarness();
    h.engine.start();
    await h.engine.submit({ kind: 'image', body: imageBody('a dog') });
    await h.engine.stop();
    const far = h.time.now() + 99_999_999_000;
    h.cache.syncState.set('engine.jobs.notBefore', far, h.time.now());
    h.cache.syncState.set('engine.training.notBefore', far, h.time.now());
    h.emulator.control.resetStats();
    await h.reopen();
    expect(h.engine.notBefore - h.time.now()).toBeLessThanOrEqual(CAP);
    for (let waited = 0; waited <= CAP + 10_000; waited += 10_000) await h.advance(10_000);
    expect(pollRequests(h.emulator).total).toBeGreaterThan(0);
  });

  it('"Check now" clears the wait and checks at once', async () => {
    h = await startEngineHarness();
    h.engine.start();
    for (let i = 0; i < 3; i += 1) await h.engine.submit({ kind: 'image', body: imageBody(`a bird ${i}`) });
    h.emulator.control.setFaults({
      rules: [{ method: 'GET', path: '/jobs', rateLimit: { count: 1, retryAfterSeconds: 240 } }],
    });
    h.emulator.control.resetStats();
    await h.advance(5_000);
    expect(h.engine.notBefore).toBeGreaterThan(h.time.now());
    await h.engine.checkNow();
    expect(h.engine.notBefore).toBe(0);
    expect(pollRequests(h.emulator).total).toBe(2);
    expect(h.rounds.at(-1)?.failure).toBeNull();
  });
});

describe('wall-clock loop gate', () => {
  it('reads a stored gate back no further than the longest wait it could have set', () => {
    const now = 5_000_000;
    const time = createManualTime(() => now, { seed: 1 });
    let saved = now + 10 * 365 * 24 * 3_600_000;
    const gate: GateStore = { load: () => saved, save: (until) => void (saved = until) };
    const loop = new WallClockLoop({
      work: { nextDueAt: () => now, run: async () => ({ requests: 1, failure: null }) },
      time,
      options: DEFAULT_LOOP_OPTIONS,
      gate,
    });
    loop.start();
    const longest = Math.max(DEFAULT_LOOP_OPTIONS.backoff.capMs, DEFAULT_LOOP_OPTIONS.authPauseMs);
    expect(loop.notBefore - now).toBeLessThanOrEqual(longest);
    expect(saved - now).toBeLessThanOrEqual(longest);
    void loop.stop();
  });
});
