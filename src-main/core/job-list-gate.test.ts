// One gate for an account's reads of the job list (issue 28, the advised interval): the jobs
// engine's listings and the library sync's job scan never read GET /jobs twice within 5 s of each
// other, whoever asks first. Against the emulator on its virtual clock.
import { afterEach, expect, it } from 'vitest';
import { POLL_INTERVALS_MS, type JobsPage } from '../contract/service.ts';
import { JobListGate } from './api/job-list-gate.ts';
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
