// Requests per poll round must not grow with the number of jobs in flight: measured against the
// emulator's own request counters for 1, 10 and 100 jobs, and checked against
// ceil(N / pageSize) + 1 (+ one GET per job that turned terminal in that round).
import { afterEach, describe, expect, it } from 'vitest';
import { imageBody, pollRequests, startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';

/** GET /jobs page size of the emulator (the spec leaves it open). */
const EMULATOR_JOBS_PAGE_SIZE = 50;

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Measured {
  jobs: number;
  rounds: number;
  /** Requests of the rounds in which no job finished: the steady cost of following N jobs. */
  steadyPerRound: number[];
  worstPerRound: number;
  terminalFetches: number;
}

async function measure(count: number): Promise<Measured> {
  h = await startEngineHarness({ emulator: { seed: 5 } });
  h.engine.start();
  const jobs = [];
  for (let i = 0; i < count; i += 1) jobs.push(await h.engine.submit({ kind: 'image', body: imageBody(`scene ${i}`) }));
  h.emulator.control.resetStats();
  h.rounds.length = 0;
  const steady: number[] = [];
  let worst = 0;
  let terminal = 0;
  for (let step = 0; step < 20; step += 1) {
    const before = pollRequests(h.emulator).total;
    const roundsBefore = h.rounds.length;
    await h.advance(5_000);
    const made = pollRequests(h.emulator).total - before;
    const rounds = h.rounds.slice(roundsBefore);
    // The engine's own report agrees with what the service saw.
    expect(rounds.reduce((sum, r) => sum + r.requests, 0)).toBe(made);
    for (const round of rounds) {
      const bound = Math.ceil(count / EMULATOR_JOBS_PAGE_SIZE) + 1 + round.terminalFetches;
      expect(round.requests, `round with ${count} jobs: ${JSON.stringify(round)}`).toBeLessThanOrEqual(bound);
      worst = Math.max(worst, round.requests);
      terminal += round.terminalFetches;
      if (round.finished === 0) steady.push(round.requests);
    }
    if (jobs.every((job) => h!.engine.get(job.localId).state === 'succeeded')) break;
  }
  expect(jobs.map((job) => h!.engine.get(job.localId).state)).toEqual(jobs.map(() => 'succeeded'));
  return {
    jobs: count,
    rounds: h.rounds.length,
    steadyPerRound: steady,
    worstPerRound: worst,
    terminalFetches: terminal,
  };
}

describe('batched polling', () => {
  it('costs the same few requests per round for 1, 10 and 100 jobs in flight', async () => {
    const results: Measured[] = [];
    for (const count of [1, 10, 100]) {
      results.push(await measure(count));
      await h!.close();
      h = undefined;
    }
    for (const r of results) {
      const steady = Math.max(...r.steadyPerRound);
      console.log(
        `[jobs] ${String(r.jobs).padStart(3)} jobs in flight: ${steady} request(s) per round while running ` +
          `(bound ceil(N/${EMULATOR_JOBS_PAGE_SIZE})+1 = ${Math.ceil(r.jobs / EMULATOR_JOBS_PAGE_SIZE) + 1}), ` +
          `worst round ${r.worstPerRound} incl. terminal fetches, ${r.terminalFetches} terminal fetches in ${r.rounds} rounds`,
      );
      expect(steady).toBeLessThanOrEqual(Math.ceil(r.jobs / EMULATOR_JOBS_PAGE_SIZE) + 1);
      // Every job's outputs were fetched exactly once.
      expect(r.terminalFetches).toBeLessThanOrEqual(r.jobs);
    }
    expect(Math.max(...results[2]!.steadyPerRound)).toBe(2); // 100 jobs: two pages of 50
    expect(Math.max(...results[1]!.steadyPerRound)).toBe(1); // 10 jobs: one page
    expect(Math.max(...results[0]!.steadyPerRound)).toBe(1); // 1 job: one GET /jobs/{id}
  }, 60_000);

  it('falls back to single GETs for jobs the listing misses (e.g. a skewed clock)', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const a = await h.engine.submit({ kind: 'image', body: imageBody('a') });
    const b = await h.engine.submit({ kind: 'image', body: imageBody('b') });
    // As if this machine believed the jobs were created two hours from now: the range misses them.
    h.cache.sqlite.prepare('UPDATE jobs SET service_created_at = ?').run(h.time.now() + 2 * 3_600_000);
    h.rounds.length = 0;
    await h.advance(5_000);
    expect(h.rounds.at(-1)).toMatchObject({ listPages: 1, singles: 2, failure: null });
    expect(h.engine.get(a.localId).lastPolledAt).not.toBeNull();
    expect(h.engine.get(b.localId).lastPolledAt).not.toBeNull();
  });

  it('polls a job older than the 7-day listing range on its own, never more than once a minute', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const a = await h.engine.submit({ kind: 'image', body: imageBody('a') });
    const b = await h.engine.submit({ kind: 'image', body: imageBody('b') });
    h.cache.sqlite
      .prepare('UPDATE jobs SET service_created_at = ? WHERE local_id = ?')
      .run(h.time.now() - 8 * 86_400_000, b.localId);
    h.rounds.length = 0;
    await h.advance(5_000);
    // a alone is listable: one GET for it, one for the old job b.
    expect(h.rounds.at(-1)).toMatchObject({ listPages: 0, singles: 2 });
    const old = h.engine.get(b.localId);
    expect(old.nextPollAt! - old.lastPolledAt!).toBe(60_000);
    expect(h.engine.get(a.localId).nextPollAt! - h.engine.get(a.localId).lastPolledAt!).toBe(5_000);
  });
});
