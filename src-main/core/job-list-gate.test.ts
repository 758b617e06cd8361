// One gate for an account's reads of the job list (issue 28, the advised interval): the jobs
// engine's listings and the library sync's job scan never read GET /jobs twice within 5 s of each
// other, whoever asks first. Against the emulator on its virtual clock.
import { afterEach, expect, it } from 'vitest';
import { POLL_INTERVALS_MS, type JobsPage } from '../contract/service.ts';
import { IN_FLIGHT_LIMIT_MS, JobListGate, MIN_LIST_INTERVAL_MS } from './api/job-list-gate.ts';
import type { EngineTime } from './host/time.ts';
import type { ServiceClient } from './api/service-client.ts';
import { jobsServiceFromClient, type JobsService } from './jobs/service-port.ts';
import { imageBody, startEngineHarness, type EngineHarness } from './jobs/test-support/engine-harness.ts';
import { createSyncer } from './sync/syncer.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it('a library refresh moments after the jobs engine listed waits for the interval before reading the job list', async () => {
  h = await startEngineHarness();
  const harness = h;
  /** When each reader's first page of GET /jobs answered (virtual ms). */
  const reads: { who: 'engine' | 'sync'; at: number }[] = [];
  const real = jobsServiceFromClient(harness.client);
  const engineService: JobsService = {
    ...real,
    async *jobPages(range, signal) {
      for await (const page of real.jobPages(range, signal)) {
        if (!range.pageToken) reads.push({ who: 'engine', at: harness.time.now() });
        yield page;
      }
    },
  };
  const client = harness.client;
  const syncSource: ServiceClient = {
    ...client,
    async *listJobs(options): AsyncGenerator<JobsPage, void, undefined> {
      let first = true;
      for await (const page of client.listJobs(options)) {
        if (first) reads.push({ who: 'sync', at: harness.time.now() });
        first = false;
        yield page;
      }
    },
  };
  const gate = new JobListGate(harness.time);
  await harness.reopen({ service: engineService, listGate: gate });
  for (let i = 0; i < 3; i += 1) await harness.engine.submit({ kind: 'image', body: imageBody(`scene ${i}`) });
  await harness.advance(5_000); // the engine's poll round lists now
  expect(reads.map((r) => r.who)).toEqual(['engine']);
  await harness.advance(1_000);
  const syncer = createSyncer({
    cache: harness.cache,
    source: syncSource,
    now: () => harness.time.now(),
    listGate: gate,
  });
  await syncer.refresh('all');
  await syncer.close();
  const sync = reads.find((r) => r.who === 'sync');
  expect(sync, 'the refresh read the job list').toBeDefined();
  const engine = reads.filter((r) => r.who === 'engine' && r.at <= sync!.at).at(-1)!;
  expect(sync!.at - engine.at).toBeGreaterThanOrEqual(POLL_INTERVALS_MS.imageJob);
  // And the engine's next listing waits for the refresh's in turn.
  for (let i = 0; i < 10; i += 1) await harness.advance(1_000);
  const sorted = reads.map((r) => r.at).sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((at, i) => at - sorted[i]!);
  expect(Math.min(...gaps), JSON.stringify(reads)).toBeGreaterThanOrEqual(POLL_INTERVALS_MS.imageJob);
});

it('a listing still waiting for its first page holds the gate, however long its own retries take', () => {
  // The sync's read met a 429 with Retry-After 2 s (6 s of a fast clock): the engine must not list
  // meanwhile, or the service sees two listings moments apart when the slow one lands (soak, CI).
  let t = 1_800_000_000_000;
  const time: EngineTime = { now: () => t, random: () => 0.5, setTimer: () => 0, clearTimer: () => {} };
  const gate = new JobListGate(time);
  const slow = gate.claim();
  t += 6_000;
  expect(gate.nextAt(), 'a second listing while the first is in flight').toBeGreaterThan(t);
  slow.answered();
  expect(gate.nextAt()).toBe(t + MIN_LIST_INTERVAL_MS);

  // A read that never answered gives the gate back (a failed read is not one).
  t += MIN_LIST_INTERVAL_MS;
  const before = gate.nextAt();
  const failing = gate.claim();
  t += 3_000;
  expect(gate.nextAt()).toBeGreaterThan(t);
  failing.failed();
  expect(gate.nextAt()).toBe(before);

  // A read whose caller never settles it stops holding the gate after the limit: polling goes on.
  const lost = gate.claim();
  const lostAt = t;
  t += IN_FLIGHT_LIMIT_MS;
  expect(gate.nextAt()).toBe(lostAt + MIN_LIST_INTERVAL_MS);
  expect(gate.nextAt()).toBeLessThan(t);
  lost.answered();
});

it("the user's Service history page counts as a listing: the engine's next one waits the interval", async () => {
  h = await startEngineHarness();
  const harness = h;
  const reads: number[] = [];
  const real = jobsServiceFromClient(harness.client);
  const service: JobsService = {
    ...real,
    async *jobPages(range, signal) {
      for await (const page of real.jobPages(range, signal)) {
        if (!range.pageToken) reads.push(harness.time.now());
        yield page;
      }
    },
  };
  await harness.reopen({ service, listGate: new JobListGate(harness.time) });
  for (let i = 0; i < 3; i += 1) await harness.engine.submit({ kind: 'image', body: imageBody(`scene ${i}`) });
  await harness.advance(4_000);
  const now = harness.time.now();
  await harness.engine.history({
    start: new Date(now - 3_600_000).toISOString(),
    end: new Date(now + 60_000).toISOString(),
  });
  expect(reads).toHaveLength(1);
  for (let i = 0; i < 12; i += 1) await harness.advance(1_000);
  expect(reads.length, 'the engine listed again').toBeGreaterThan(1);
  const gaps = reads.slice(1).map((at, i) => at - reads[i]!);
  expect(Math.min(...gaps), JSON.stringify(reads)).toBeGreaterThanOrEqual(POLL_INTERVALS_MS.imageJob);
});
