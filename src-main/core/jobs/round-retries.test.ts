// Checking that survives failures (issue 28 item 3), against the emulator's fault knobs on its
// virtual clock: each request of a round retries on its own, a round that got answers resets the
// loop's backoff, the gaps between checks of a running job stay within twice the advised interval
// under the fault mix, and one listing per pass serves reconciliation and the poll round.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import { POLL_INTERVALS_MS } from '../../contract/service.ts';
import type { RoundReport } from './poll-round.ts';
import { RECONCILE_WINDOW } from './reconcile.ts';
import { jobsServiceFromClient, type JobsService } from './service-port.ts';
import {
  imageBody,
  pollRequests,
  startEngineHarness,
  videoBody,
  type EngineHarness,
} from './test-support/engine-harness.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function submitImages(harness: EngineHarness, count: number, prompt = 'scene'): Promise<JobInfo[]> {
  const jobs: JobInfo[] = [];
  for (let i = 0; i < count; i += 1)
    jobs.push(await harness.engine.submit({ kind: 'image', body: imageBody(`${prompt} ${i}`) }));
  return jobs;
}

const stateOf = (harness: EngineHarness, job: JobInfo) => harness.engine.get(job.localId).state;

/** Two jobs checked through the listing and one too old for it (checked by its own GET, which fails). */
async function listedPlusOld(harness: EngineHarness): Promise<{ listed: JobInfo[]; old: JobInfo }> {
  harness.engine.start();
  const [a, b, old] = await submitImages(harness, 3);
  harness.cache.sqlite
    .prepare('UPDATE jobs SET service_created_at = ? WHERE local_id = ?')
    .run(harness.time.now() - 8 * 86_400_000, old!.localId);
  return { listed: [a!, b!], old: old! };
}

describe('poll rounds under failures', () => {
  it('a request that keeps failing costs only its own job: the round finishes the others, the loop is not held', async () => {
    h = await startEngineHarness();
    const { listed, old } = await listedPlusOld(h);
    // The old job's GET fails every time; the others answer. By +40 s every job ended on the service.
    h.emulator.control.setFaults({
      rules: [{ method: 'GET', path: `/jobs/${old.jobId}`, serverError: { status: 503 } }],
    });
    h.rounds.length = 0;
    await h.advance(40_000);
    const round = h.rounds[0]!;
    // Its GET was tried three times (two short, jittered retries), then the round went on.
    expect(round).toMatchObject({ finished: 2, unchecked: 1, failure: { code: 'server', httpStatus: 503 } });
    expect(round.retries).toBe(2);
    expect(listed.map((job) => stateOf(h!, job))).toEqual(['succeeded', 'succeeded']);
    // Not a sick service: no loop-wide wait; the failed job alone is checked again within ~2 s.
    expect(h.engine.notBefore).toBe(0);
    const retryIn = h.engine.get(old.localId).nextPollAt! - h.time.now();
    expect(retryIn).toBeGreaterThan(0);
    expect(retryIn).toBeLessThanOrEqual(2_000);
    h.emulator.control.clearFaults();
    await h.advance(2_000);
    expect(stateOf(h, old)).toBe('succeeded');
  });

  it('one 503 or reset inside a round is retried at once, and the round loses nothing', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const jobs = await submitImages(h, 4);
    h.emulator.control.setFaults({
      rules: [
        { method: 'GET', path: '/jobs', serverError: { count: 1, status: 503 } },
        { method: 'GET', path: '/jobs/:id', dropConnection: { count: 1 } },
      ],
    });
    h.emulator.control.resetStats();
    h.rounds.length = 0;
    await h.advance(40_000);
    expect(h.rounds).toHaveLength(1);
    expect(h.rounds[0]).toMatchObject({ finished: 4, retries: 2, failure: null, unchecked: 0 });
    expect(jobs.map((job) => stateOf(h!, job))).toEqual(jobs.map(() => 'succeeded'));
    // The report counts every attempt the service saw: 2 listing attempts + 5 GETs of 4 jobs.
    expect(pollRequests(h.emulator)).toEqual({ list: 2, single: 5, total: 7 });
    expect(h.rounds[0]!.requests).toBe(7);
  });

  it('a round that finished something resets the backoff that failed rounds built up', async () => {
    h = await startEngineHarness();
    const { listed, old } = await listedPlusOld(h);
    // Two rounds in which nothing answered (3 attempts each): the loop backs off, growing.
    h.emulator.control.setFaults({ rules: [{ method: 'GET', serverError: { status: 503 } }] });
    await h.advance(5_000);
    await h.advance(Math.max(1, h.engine.notBefore - h.time.now()));
    expect(h.rounds.slice(-2).map((r) => [r.finished, r.failure?.code])).toEqual([
      [0, 'server'],
      [0, 'server'],
    ]);
    expect(h.engine.notBefore).toBeGreaterThan(h.time.now());
    // Then a round in which the old job's GET still fails but the listed jobs finish.
    h.emulator.control.setFaults({
      rules: [{ method: 'GET', path: `/jobs/${old.jobId}`, serverError: { status: 503 } }],
    });
    await h.advance(40_000);
    expect(h.rounds.at(-1)).toMatchObject({ finished: 2, failure: { code: 'server' } });
    expect(listed.map((job) => stateOf(h!, job))).toEqual(['succeeded', 'succeeded']);
    expect(h.engine.notBefore).toBe(0);
    // The next round with no answer at all backs off from the start again: ≤ 2 s, not ≤ 8 s.
    h.emulator.control.setFaults({ rules: [{ method: 'GET', serverError: { status: 503 } }] });
    await h.advance(Math.max(1, h.engine.get(old.localId).nextPollAt! - h.time.now()));
    expect(h.rounds.at(-1)).toMatchObject({ finished: 0, failure: { code: 'server' } });
    const wait = h.engine.notBefore - h.time.now();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(2_000);
  });

  it('a 429 with a long Retry-After still ends the round and holds the loop, and says so', async () => {
    h = await startEngineHarness();
    h.engine.start();
    await submitImages(h, 3);
    h.emulator.control.setFaults({
      rules: [{ method: 'GET', path: '/jobs', rateLimit: { count: 1, retryAfterSeconds: 30 } }],
    });
    h.emulator.control.resetStats();
    await h.advance(5_000);
    expect(pollRequests(h.emulator).total).toBe(1); // not retried inside the round
    expect(h.engine.notBefore - h.time.now()).toBeGreaterThanOrEqual(30_000);
    const said = h.recorded.filter((e) => e.event === 'service:rate-limited');
    expect(said).toHaveLength(1);
  });

  it('under the issue fault mix, no running job waits more than twice its advised interval for a check', async () => {
    const rounds: RoundReport[] = [];
    /** When each listing's first page was answered (virtual time). */
    const listings: number[] = [];
    const service = (): JobsService => jobsServiceFromClient(h!.client);
    h = await startEngineHarness({
      emulator: { seed: 28 },
      seed: 28,
      engine: {
        onRound: (report) => void rounds.push(report),
        // The real service port, watched: the moment every listing's first page arrives.
        service: {
          submit: (request) => service().submit(request),
          getJob: (jobId, signal) => service().getJob(jobId, signal),
          getModel: (modelId, signal) => service().getModel(modelId, signal),
          trainModel: (modelId) => service().trainModel(modelId),
          countModelImages: (modelId, type, signal) => service().countModelImages(modelId, type, signal),
          async *jobPages(range, signal) {
            for await (const page of service().jobPages(range, signal)) {
              if (!range.pageToken) listings.push(h!.time.now());
              yield page;
            }
          },
        },
      },
    });
    h.engine.start();
    // As in the issue: about 100 jobs, images and videos, all in flight together.
    const jobs = [...(await submitImages(h, 75, 'mix'))];
    for (let i = 0; i < 25; i += 1)
      jobs.push(await h.engine.submit({ kind: 'video', body: videoBody(`mix video ${i}`) }));
    // 5 % 503, 2 % resets, 2 % 429 with Retry-After: 2, on every status check.
    const mix = { serverError: { probability: 0.05 }, dropConnection: { probability: 0.02 } };
    const limit = { rateLimit: { probability: 0.02, retryAfterSeconds: 2 } };
    h.emulator.control.setFaults({
      rules: [
        { method: 'GET', path: '/jobs', ...mix, ...limit },
        { method: 'GET', path: '/jobs/:id', ...mix, ...limit },
      ],
    });
    h.emulator.control.resetStats();
    const seen = new Map<number, number[]>(jobs.map((job) => [job.localId, [h!.engine.get(job.localId).createdAt]]));
    const select = h.cache.sqlite.prepare('SELECT local_id, state, last_polled_at, updated_at FROM jobs');
    for (let step = 0; step < 360 && jobs.some((job) => stateOf(h!, job) !== 'succeeded'); step += 1) {
      await h.advance(1_000);
      for (const row of select.all() as {
        local_id: number;
        state: string;
        last_polled_at: number | null;
        updated_at: number;
      }[]) {
        const times = seen.get(row.local_id)!;
        if (times.at(-1) === Number.MAX_SAFE_INTEGER) continue; // already noticed as finished
        if (row.state === 'succeeded') times.push(row.updated_at, Number.MAX_SAFE_INTEGER);
        else if (row.last_polled_at !== null && row.last_polled_at !== times.at(-1)) times.push(row.last_polled_at);
      }
    }
    let worst = 0;
    for (const job of jobs) {
      const advised = job.kind === 'video' ? POLL_INTERVALS_MS.videoJob : POLL_INTERVALS_MS.imageJob;
      // A job not finished yet has waited since its last check until now.
      const recorded = seen.get(job.localId)!;
      const times = recorded.at(-1) === Number.MAX_SAFE_INTEGER ? recorded.slice(0, -1) : [...recorded, h.time.now()];
      const gaps = times.slice(1).map((at, i) => at - times[i]!);
      const longest = Math.max(...gaps);
      worst = Math.max(worst, longest / advised);
      expect(longest, `${job.kind} job ${job.localId}: gaps ${gaps.join(', ')}`).toBeLessThanOrEqual(2 * advised);
    }
    expect(jobs.map((job) => stateOf(h!, job))).toEqual(jobs.map(() => 'succeeded'));
    const retries = rounds.reduce((sum, r) => sum + r.retries, 0);
    const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
    console.log(
      `[jobs] fault mix: ${jobs.length} jobs, ${rounds.length} rounds, ${requests} requests (${retries} retries), ` +
        `longest gap between checks ${worst.toFixed(2)}× the advised interval`,
    );
    // Some faults did fire, and the tick reports count every attempt the service saw.
    expect(retries).toBeGreaterThan(0);
    expect(requests).toBe(pollRequests(h.emulator).total);
    // No listing within the shortest advised interval of the one before.
    const closest = Math.min(...listings.slice(1).map((at, i) => at - listings[i]!));
    expect(closest).toBeGreaterThanOrEqual(POLL_INTERVALS_MS.imageJob);
  }, 60_000);
});

describe('one listing per pass', () => {
  it('after a restart, reconciliation and the poll round share one GET /jobs, and no job is read twice', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const running = await submitImages(h, 3, 'in flight');
    // Two submissions whose answers are cut off: the service has the jobs, the app does not know them.
    h.emulator.control.setFaults({
      rules: [
        { method: 'POST', path: '/images/generation', truncateBody: { count: 1 } },
        { method: 'POST', path: '/videos/generation', truncateBody: { count: 1 } },
      ],
    });
    // An image and a video (told apart by kind, so each can be tied to its job).
    const lost = [
      await h.engine.submit({ kind: 'image', body: imageBody('lost answer') }),
      await h.engine.submit({ kind: 'video', body: videoBody('lost answer') }),
    ];
    expect(lost.map((job) => stateOf(h!, job))).toEqual(['submitting', 'submitting']);
    h.emulator.control.clearFaults();
    // The app is closed; meanwhile every job ends on the service and the lost answers' windows
    // close (a row waiting on a lost answer is decided only then). Then it starts again.
    await h.engine.stop();
    h.emulator.control.advanceClock(RECONCILE_WINDOW.afterMs + 1_000);
    h.emulator.control.resetStats();
    h.rounds.length = 0;
    await h.reopen();
    expect(h.rounds).toHaveLength(1);
    // One listing served both; each of the five jobs' records was read once (two of them by
    // reconciliation, which the poll round then used instead of asking again).
    expect(pollRequests(h.emulator)).toEqual({ list: 1, single: 5, total: 6 });
    expect([...running, ...lost].map((job) => stateOf(h!, job))).toEqual([...running, ...lost].map(() => 'succeeded'));
  });

  it('a listing whose later page fails still counts as read: the next one waits the advised interval', async () => {
    h = await startEngineHarness();
    const harness = h;
    // The real service, watched: when a listing's first page has been answered, the emulator fails
    // the next three GET /jobs (page 2 and its two retries) with 503, so the round ends failed.
    const real = jobsServiceFromClient(harness.client);
    const listed: number[] = [];
    let failNextPage = true;
    const watched: JobsService = {
      ...real,
      async *jobPages(range, signal) {
        for await (const page of real.jobPages(range, signal)) {
          if (!range.pageToken) {
            listed.push(harness.time.now());
            if (failNextPage && page.nextPageToken) {
              failNextPage = false;
              harness.emulator.control.setFaults({
                rules: [{ method: 'GET', path: '/jobs', serverError: { status: 503, count: 3 } }],
              });
            }
          }
          yield page;
        }
      },
    };
    await harness.reopen({ service: watched });
    // More jobs in flight than one page of the listing holds (the emulator's pages hold 50).
    await submitImages(harness, 60, 'many');
    for (let i = 0; i < 40; i += 1) await harness.advance(500);
    expect(failNextPage).toBe(false);
    expect(harness.rounds[0]).toMatchObject({ failure: { code: 'server', httpStatus: 503 } });
    expect(listed.length).toBeGreaterThanOrEqual(3);
    // The job list was read when its first page answered: no listing, whoever asks, within the
    // advised interval of it (before, the round after the failed one listed again ~1 s later).
    const gaps = listed.slice(1).map((at, i) => at - listed[i]!);
    expect(Math.min(...gaps), `listings at ${listed.join(', ')}`).toBeGreaterThanOrEqual(POLL_INTERVALS_MS.imageJob);
  });

  it('an interrupted submission checked moments after a listing waits for the next one, which serves both', async () => {
    h = await startEngineHarness();
    h.engine.start();
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', truncateBody: { count: 1 } }],
    });
    const sentAt = h.time.now();
    const lost = await h.engine.submit({ kind: 'image', body: imageBody('lost answer') });
    h.emulator.control.clearFaults();
    // Its window closes 3 min after its POST: until then it is not decided.
    const closesAt = sentAt + RECONCILE_WINDOW.afterMs;
    while (h.time.now() < closesAt - 10_000) await h.advance(5_000);
    await h.advance(closesAt - 6_000 - h.time.now());
    expect(h.engine.get(lost.localId)).toMatchObject({ state: 'submitting', jobId: null });
    // Three jobs in flight whose first check (a listing) comes 1 s before the window closes.
    await submitImages(h, 3, 'in flight');
    h.emulator.control.resetStats();
    h.rounds.length = 0;
    const listedAt: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const before = pollRequests(h.emulator).list;
      await h.advance(1_000);
      if (pollRequests(h.emulator).list > before) listedAt.push(h.time.now());
    }
    // The window closed 1 s after that listing: the row waited for the next one (5 s after it),
    // which served both reconciliation and the poll round.
    expect(h.engine.get(lost.localId).jobId).toMatch(/\S/);
    expect(listedAt).toHaveLength(2);
    expect(listedAt[1]! - listedAt[0]!).toBeGreaterThanOrEqual(POLL_INTERVALS_MS.imageJob);
    expect(pollRequests(h.emulator).list).toBe(2);
    expect(h.rounds.every((round) => round.listPages <= 1)).toBe(true);
  });
});
