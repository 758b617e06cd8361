// Faults the poll loop must survive, against the emulator's fault knobs on its virtual clock:
// 429 with Retry-After, bursts of 5xx, malformed and truncated answers, sleep and offline.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import { ROUND_RETRY } from '../api/backoff.ts';
import { imageBody, pollRequests, startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function inFlight(harness: EngineHarness, count: number): Promise<JobInfo[]> {
  harness.engine.start();
  const jobs: JobInfo[] = [];
  for (let i = 0; i < count; i += 1)
    jobs.push(await harness.engine.submit({ kind: 'image', body: imageBody(`job ${i}`) }));
  return jobs;
}

const snapshot = (harness: EngineHarness, jobs: JobInfo[]) =>
  jobs.map((job) => {
    const now = harness.engine.get(job.localId);
    return {
      state: now.state,
      serviceStatus: now.serviceStatus,
      jobId: now.jobId,
      error: now.error,
      outputs: now.outputs,
    };
  });

describe('poll faults', () => {
  it('waits at least the Retry-After of a 429 before the next request, even across a restart', async () => {
    h = await startEngineHarness();
    await inFlight(h, 3);
    h.emulator.control.setFaults({
      rules: [{ method: 'GET', path: '/jobs', rateLimit: { count: 1, retryAfterSeconds: 45 } }],
    });
    h.emulator.control.resetStats();
    await h.advance(5_000);
    expect(h.rounds.at(-1)?.failure).toMatchObject({ code: 'rate_limited', retryAfterMs: 45_000 });
    const limitedAt = h.time.now();
    expect(h.engine.notBefore - limitedAt).toBeGreaterThanOrEqual(45_000);
    expect(pollRequests(h.emulator).total).toBe(1);
    // The app says so (status bar: rate limited) for as long as it waits.
    const said = h.recorded.filter((e) => e.event === 'service:rate-limited').map((e) => e.payload);
    expect(said).toEqual([{ source: 'jobs', retryAfterMs: h.engine.notBefore - limitedAt }]);

    // A restart in the middle keeps the wait (it is stored with the account).
    await h.advance(20_000);
    await h.reopen();
    for (let waited = 20_000; waited + 5_000 < 45_000; waited += 5_000) {
      await h.advance(5_000);
      expect(pollRequests(h.emulator).total, `after ${waited + 5_000} ms`).toBe(1);
    }
    await h.advance(h.engine.notBefore - h.time.now());
    expect(pollRequests(h.emulator).total).toBeGreaterThan(1);
    expect(h.time.now() - limitedAt).toBeGreaterThanOrEqual(45_000);
    expect(h.rounds.at(-1)?.failure).toBeNull();
  });

  it('backs off with growing, jittered delays through a burst of 5xx, then recovers', async () => {
    h = await startEngineHarness();
    const jobs = await inFlight(h, 4);
    // Each round tries its listing ROUND_RETRY.attempts times before it gives up: 8 failed rounds.
    h.emulator.control.setFaults({
      rules: [{ method: 'GET', path: '/jobs', serverError: { count: 8 * ROUND_RETRY.attempts, status: 503 } }],
    });
    await h.advance(5_000);
    const delays: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      expect(h.rounds.at(-1)).toMatchObject({
        failure: { code: 'server', httpStatus: 503 },
        answered: 0,
        retries: ROUND_RETRY.attempts - 1,
      });
      const delay = h.engine.notBefore - h.time.now();
      delays.push(delay);
      // Full jitter: never above the doubling ceiling (2 s, 4 s, 8 s, … capped at 5 min).
      expect(delay).toBeLessThanOrEqual(Math.min(2_000 * 2 ** i, 300_000));
      expect(delay).toBeGreaterThanOrEqual(0);
      await h.advance(delay);
    }
    console.log(`[jobs] delays after consecutive 503s (ms): ${delays.join(', ')}`);
    expect(new Set(delays).size).toBe(delays.length); // jittered, not a fixed schedule
    const early = delays.slice(0, 3).reduce((a, b) => a + b) / 3;
    const late = delays.slice(-3).reduce((a, b) => a + b) / 3;
    expect(late).toBeGreaterThan(early * 4);
    // The burst is over: the next round succeeds and the jobs finish.
    expect(h.rounds.at(-1)?.failure).toBeNull();
    for (let i = 0; i < 10 && jobs.some((job) => h!.engine.get(job.localId).state !== 'succeeded'); i += 1)
      await h.advance(5_000);
    expect(jobs.map((job) => h!.engine.get(job.localId).state)).toEqual(jobs.map(() => 'succeeded'));
  });

  it('survives 99 malformed or truncated poll answers without a crash or a changed job', async () => {
    h = await startEngineHarness();
    const jobs = await inFlight(h, 3);
    await h.advance(5_000); // one clean round: the jobs are known to be queued or running
    const before = snapshot(h, jobs);
    h.emulator.control.setFaults({
      rules: [
        { method: 'GET', path: '/jobs', malformedJson: { count: 50 } },
        { method: 'GET', path: '/jobs', truncateBody: { count: 49 } },
      ],
    });
    h.emulator.control.resetStats();
    h.rounds.length = 0;
    // Each round tries its listing 3 times (ROUND_RETRY) before it gives up: 33 failed rounds.
    while (pollRequests(h.emulator).total < 99) {
      await h.advance(Math.max(5_000, h.engine.notBefore - h.time.now()));
      expect(h.rounds.at(-1)).toMatchObject({
        failure: { code: 'malformed_response' },
        requests: ROUND_RETRY.attempts,
      });
      expect(snapshot(h, jobs)).toEqual(before);
    }
    expect(h.rounds.filter((r) => r.failure?.code === 'malformed_response')).toHaveLength(99 / ROUND_RETRY.attempts);
    expect(
      h.emulator.control
        .faults()
        .rules?.every((r) => (r.malformedJson?.count ?? 0) + (r.truncateBody?.count ?? 0) === 0),
    ).toBe(true);
    // Polling goes on: the next answers are clean and the jobs (long finished on the service) end well.
    await h.advance(Math.max(5_000, h.engine.notBefore - h.time.now()));
    await h.advance(5_000);
    expect(jobs.map((job) => h!.engine.get(job.localId).state)).toEqual(jobs.map(() => 'succeeded'));
  }, 60_000);

  it('after an 8-hour sleep catches up once per job and shows one summary notification', async () => {
    h = await startEngineHarness();
    const jobs = await inFlight(h, 10);
    await h.advance(5_000);
    h.power.suspend();
    h.emulator.control.resetStats();
    h.rounds.length = 0;
    await h.advance(8 * 3_600_000);
    expect(pollRequests(h.emulator).total).toBe(0); // asleep: nothing was sent
    h.power.resume();
    await h.advance(6_000); // the catch-up lands within a few jittered seconds
    await h.advance(5_000); // the notification window
    expect(h.rounds).toHaveLength(1);
    expect(h.rounds[0]).toMatchObject({ listPages: 1, singles: 0, terminalFetches: 10, finished: 10, failure: null });
    expect(pollRequests(h.emulator)).toEqual({ list: 1, single: 10, total: 11 });
    expect(jobs.map((job) => h!.engine.get(job.localId).state)).toEqual(jobs.map(() => 'succeeded'));
    expect(h.notifications).toEqual([{ title: '10 jobs finished', body: '10 ready' }]);
    // A restart never announces them again.
    await h.reopen();
    await h.advance(10_000);
    expect(h.notifications).toHaveLength(1);
  });

  it('notices a sleep it was not told about (a late timer) and catches up the same way', async () => {
    h = await startEngineHarness();
    const jobs = await inFlight(h, 5);
    await h.advance(5_000);
    h.emulator.control.resetStats();
    h.rounds.length = 0;
    h.emulator.control.advanceClock(8 * 3_600_000);
    await h.settle(); // the overdue timer fires late: treated as a wake-up, not a storm
    await h.advance(6_000);
    await h.advance(5_000);
    expect(h.rounds).toHaveLength(1);
    expect(pollRequests(h.emulator)).toEqual({ list: 1, single: 5, total: 6 });
    expect(jobs.every((job) => h!.engine.get(job.localId).state === 'succeeded')).toBe(true);
    expect(h.notifications).toEqual([{ title: '5 jobs finished', body: '5 ready' }]);
  });

  it('sends nothing while offline and resumes with one jittered round when back', async () => {
    h = await startEngineHarness();
    const jobs = await inFlight(h, 3);
    h.power.setOnline(false);
    h.emulator.control.resetStats();
    await h.advance(60_000);
    expect(pollRequests(h.emulator).total).toBe(0);
    await expect(h.engine.submit({ kind: 'image', body: imageBody() })).rejects.toMatchObject({
      info: { code: 'offline' },
    });
    h.power.setOnline(true);
    await h.advance(6_000);
    expect(pollRequests(h.emulator).list).toBe(1);
    expect(jobs.every((job) => h!.engine.get(job.localId).state === 'succeeded')).toBe(true);
  });
});
