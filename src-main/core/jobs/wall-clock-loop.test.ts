// The loop's timing rules on a manual clock: due times, backoff, Retry-After kept through a
// wake-up, pauses, late timers (sleep) and unexpected errors that must not become a busy loop.
import { describe, expect, it } from 'vitest';
import type { ErrorInfo } from '../../contract/errors.ts';
import { createManualTime } from './test-support/manual-time.ts';
import { DEFAULT_LOOP_OPTIONS, WallClockLoop, type LoopWork } from './wall-clock-loop.ts';

type Outcome = ErrorInfo | null | 'throw' | { failure: ErrorInfo; progressed: true };

function setup(results: Outcome[] = []) {
  let now = 1_000_000;
  const time = createManualTime(() => now, { seed: 9 });
  let due: number | null = now;
  const runs: number[] = [];
  const work: LoopWork = {
    nextDueAt: () => due,
    async run() {
      runs.push(now);
      const next = results.shift() ?? null;
      if (next === 'throw') throw new Error('database is locked');
      if (!next) due = now + 5_000;
      if (next && 'progressed' in next) return { requests: 1, failure: next.failure, progressed: true };
      return { requests: 1, failure: next };
    },
  };
  const loop = new WallClockLoop({ work, time, options: DEFAULT_LOOP_OPTIONS, onError: () => {} });
  const step = async (ms: number) => {
    now += ms;
    time.fireDue();
    await loop.settled();
  };
  return { loop, time, runs, step, setDue: (at: number | null) => void (due = at), now: () => now };
}

const rateLimited: ErrorInfo = { code: 'rate_limited', message: 'busy', retryAfterMs: 90_000 };

describe('wall-clock loop', () => {
  it('runs when due and again at the next due time', async () => {
    const t = setup();
    t.loop.start();
    await t.step(0);
    await t.step(4_999);
    await t.step(1);
    expect(t.runs).toHaveLength(2);
  });

  it('keeps a Retry-After through a wake-up catch-up', async () => {
    const t = setup([rateLimited]);
    t.loop.start();
    await t.step(0);
    const limitedAt = t.now();
    t.loop.pause('suspended');
    await t.step(10_000);
    t.loop.resume('suspended'); // would catch up within 5 s, but the service asked for 90 s
    for (let i = 0; i < 16; i += 1) await t.step(5_000);
    expect(t.runs).toHaveLength(1);
    await t.step(5_000);
    await t.step(1_000);
    expect(t.runs).toHaveLength(2);
    expect(t.runs[1]! - limitedAt).toBeGreaterThanOrEqual(90_000);
  });

  it('runs nothing while paused for any reason, once when the last pause ends', async () => {
    const t = setup();
    t.loop.start();
    t.loop.pause('offline');
    t.loop.pause('setting');
    await t.step(60_000);
    t.loop.resume('offline');
    await t.step(60_000);
    expect(t.runs).toHaveLength(0);
    t.loop.resume('setting');
    await t.step(DEFAULT_LOOP_OPTIONS.catchUpSpreadMs);
    expect(t.runs).toHaveLength(1);
  });

  it('treats a timer that fires far too late as a wake-up: one jittered run, not an immediate burst', async () => {
    const t = setup();
    t.loop.start();
    await t.step(0);
    await t.step(8 * 3_600_000); // the 5 s timer fires 8 hours late
    expect(t.runs).toHaveLength(1);
    await t.step(DEFAULT_LOOP_OPTIONS.catchUpSpreadMs);
    expect(t.runs).toHaveLength(2);
  });

  it('backs off after an unexpected error instead of spinning', async () => {
    const t = setup(['throw', 'throw', null]);
    t.loop.start();
    await t.step(0);
    expect(t.runs).toHaveLength(1);
    expect(t.loop.notBefore).toBeGreaterThan(t.now());
    await t.step(0);
    expect(t.runs).toHaveLength(1);
    await t.step(t.loop.notBefore - t.now());
    expect(t.runs).toHaveLength(2);
    expect(t.loop.failures).toBe(2);
  });

  it('never arms a timer longer than the cap, so a changed wall clock is seen', async () => {
    const t = setup();
    t.setDue(t.now() + 3_600_000);
    t.loop.start();
    expect(Math.max(...t.time.armed)).toBeLessThanOrEqual(DEFAULT_LOOP_OPTIONS.maxTimerMs);
  });

  it('a transient failure in a run that also got answers resets the backoff; a rate limit still gates', async () => {
    const server: ErrorInfo = { code: 'server', message: 'unavailable', httpStatus: 503 };
    const t = setup([
      server,
      server,
      { failure: server, progressed: true },
      { failure: rateLimited, progressed: true },
    ]);
    t.loop.start();
    await t.step(0);
    await t.step(t.loop.notBefore - t.now());
    expect(t.loop.failures).toBe(2);
    await t.step(t.loop.notBefore - t.now());
    // Partly failed, partly answered: not a sick service.
    expect(t.loop.failures).toBe(0);
    expect(t.loop.notBefore).toBe(0);
    await t.step(0);
    // A 429 is honoured even when the run also got answers.
    expect(t.runs).toHaveLength(4);
    expect(t.loop.notBefore - t.now()).toBeGreaterThanOrEqual(90_000);
  });
});
