import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createForeground, MAX_QUIET_WAIT_MS, pacer, QUIET_MS } from './paced-work.ts';

/** Runs `step` under fake timers and says how much fake time it took. */
async function fakeTimeOf(step: () => Promise<void>): Promise<number> {
  const started = performance.now();
  let done = false;
  void step().then(() => (done = true));
  for (await vi.advanceTimersByTimeAsync(0); !done;) await vi.advanceTimersByTimeAsync(1);
  return performance.now() - started;
}

describe('pacer', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('pauses as long as the slice took, no more, when nobody is being served', async () => {
    const pace = pacer({ sliceMs: 4, foreground: createForeground() });
    vi.advanceTimersByTime(10); // a slice of 10 ms of work
    expect(await fakeTimeOf(pace)).toBe(10);
    // A step within a slice does not pause at all.
    expect(await fakeTimeOf(pace)).toBe(0);
  });

  it('waits for a quiet moment after the user was served', async () => {
    const foreground = createForeground();
    const pace = pacer({ sliceMs: 0, foreground });
    foreground.served();
    // A slice of 0 ms pauses for nothing, then waits until nothing was served for QUIET_MS.
    expect(await fakeTimeOf(pace)).toBe(QUIET_MS);
    // Served again halfway through the wait: the quiet moment starts again from there.
    const waiting = fakeTimeOf(pace);
    foreground.served();
    await vi.advanceTimersByTimeAsync(QUIET_MS / 2);
    foreground.served();
    expect(await waiting).toBe(QUIET_MS / 2 + QUIET_MS);
  });

  it('never waits longer than MAX_QUIET_WAIT_MS for a renderer that keeps asking', async () => {
    const busy = { served: () => undefined, quietFor: () => 0 };
    expect(await fakeTimeOf(pacer({ sliceMs: 0, foreground: busy }))).toBe(MAX_QUIET_WAIT_MS);
  });

  it('stops waiting when its work is stopped', async () => {
    const controller = new AbortController();
    const busy = { served: () => undefined, quietFor: () => 0 };
    const waiting = fakeTimeOf(pacer({ sliceMs: 0, foreground: busy, signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect(await waiting).toBeLessThanOrEqual(101);
  });
});
