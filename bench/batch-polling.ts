// Scenario 9 (issue 33): polling at N = 1,000 when the jobs come from one batch. The batch goes through
// the real batch runner (at most BATCH_IN_FLIGHT unanswered POSTs, the outbox, a jobs row per item) and
// the real jobs engine polls them, on the emulator's clock as in scenarios 1 and 2 (polling-sim.ts):
// while the batch is still sending, the clock runs in real time (scale 1) and due timers fire as it
// passes them; once everything is sent, the waiting is skipped by jumping to the next timer. Baseline:
// the naive poller on its own emulator with the same seed (same job ids and durations), its 1,000
// submissions made at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../emulator/index.ts';
import { planBatch } from '../src-main/contract/batch/batch-plan.ts';
import { readPromptList } from '../src-main/contract/batch/batch-source.ts';
import type { JobInfo } from '../src-main/contract/ipc/jobs.ts';
import { createServiceClient } from '../src-main/core/api/service-client.ts';
import { openAccountDb } from '../src-main/core/db/account-db.ts';
import type { NewBatchItem } from '../src-main/core/db/repos/batches-repo.ts';
import { createEventBus } from '../src-main/core/events.ts';
import { createJobsEngine } from '../src-main/core/jobs/engine.ts';
import type { RoundReport } from '../src-main/core/jobs/poll-round.ts';
import { jobsServiceFromClient } from '../src-main/core/jobs/service-port.ts';
import { createManualTime } from '../src-main/core/jobs/test-support/manual-time.ts';
import { silentLogger } from '../src-main/core/log/index.ts';
import type { BenchContext, Scenario } from './harness/context.ts';
import { row } from './harness/report.ts';
import { max, median } from './harness/stats.ts';
import { sleep } from './harness/timing.ts';
import {
  API_KEY,
  POLL_INTERVAL_MS,
  VIRTUAL_LIMIT_MS,
  detectionOf,
  finishTimes,
  runNaive,
  windowsOf,
  type PollRun,
} from './polling-sim.ts';

const JOBS = 1_000;
const REQUESTS_PER_JOB_GOAL = 1.3;
const DETECTION_GOAL = 0.6;
/** How often the driver looks while the batch is sending (real ms; the clock runs meanwhile). */
const SENDING_LOOK_MS = 10;

interface BatchRun extends PollRun {
  /** Virtual ms from the batch's start to its last item sent (answered by the service). */
  sendingMs: number;
  posts: number;
  rounds: number;
  /** When each poll round ended (virtual ms after the batch's start) and what it read. */
  roundEnds: { at: number; listPages: number; fetches: number }[];
}

/** The batch's items as batches:start stores them: `bench scene i` on imagea, one image each. */
function batchItems(jobs: number): NewBatchItem[] {
  const list = Array.from({ length: jobs }, (_, i) => `bench scene ${i}`).join('\n');
  const plan = planBatch(readPromptList(list), { model: 'imagea', 'num-images': '1' });
  if (plan.refused.length > 0 || plan.jobs.length !== jobs) throw new Error('the bench batch did not plan cleanly');
  return plan.jobs.map((job) => ({
    row: job.row,
    expansion: null,
    of: job.of,
    kind: job.kind,
    request: job.body,
    state: 'pending',
    problem: null,
    estimate: null,
  }));
}

/** One batch of `jobs` items through the batch runner and the jobs engine, on the emulator's clock. */
export async function runAtelierBatch(jobs: number, seed: number, workDir: string): Promise<BatchRun> {
  const emulator = await startEmulator({ seed, timeScale: 1 });
  const dir = mkdtempSync(join(workDir, 'atelier-batch-'));
  const cache = openAccountDb(join(dir, 'atelier.db'));
  const client = createServiceClient({ baseUrl: emulator.url, getApiKey: () => API_KEY, logger: silentLogger() });
  const time = createManualTime(() => emulator.control.now(), { seed });
  const events = createEventBus();
  const noticed = new Map<string, number>();
  events.subscribe((event, payload) => {
    if (event !== 'jobs:changed') return;
    const info = payload as JobInfo;
    if (info.jobId && (info.state === 'succeeded' || info.state === 'failed') && !noticed.has(info.jobId)) {
      noticed.set(info.jobId, emulator.control.now());
    }
  });
  const rounds: { at: number; report: RoundReport }[] = [];
  const engine = createJobsEngine({
    cache,
    service: jobsServiceFromClient(client),
    events,
    time,
    onRound: (report) => void rounds.push({ at: time.now(), report }),
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 100; i += 1) {
      await engine.settled();
      if (time.fireDue() === 0) {
        await engine.settled();
        if (time.pending().every((t) => t.at > time.now())) return;
      }
    }
    throw new Error('the engine kept firing timers');
  };
  const items = batchItems(jobs);
  try {
    engine.start();
    emulator.control.resetStats();
    const startedAt = emulator.control.now();
    const batch = engine.batches.create('bench batch', items);
    const sending = () => engine.batches.get(batch.id).state === 'running';
    while (sending()) {
      if (emulator.control.now() - startedAt > VIRTUAL_LIMIT_MS) throw new Error('the batch was still sending');
      time.fireDue();
      await sleep(SENDING_LOOK_MS);
    }
    const sendingMs = emulator.control.now() - startedAt;
    const jobRows = () => engine.list(jobs * 2);
    const open = () => jobRows().filter((j) => ['submitting', 'queued', 'running'].includes(j.state)).length;
    while (open() > 0) {
      await settle();
      if (open() === 0) break;
      const next = Math.min(...time.pending().map((t) => t.at));
      if (!Number.isFinite(next)) throw new Error('jobs in flight but no poll planned');
      if (next - startedAt > VIRTUAL_LIMIT_MS)
        throw new Error(`jobs still running after ${VIRTUAL_LIMIT_MS / 60_000} virtual minutes`);
      const now = emulator.control.now();
      if (next > now) emulator.control.advanceClock(next - now);
    }
    await engine.settled();
    const byRoute = emulator.control.stats().byRoute;
    const requests = { list: byRoute['GET /jobs'] ?? 0, single: byRoute['GET /jobs/:id'] ?? 0 };
    const counted = rounds.reduce((sum, r) => sum + r.report.requests, 0);
    if (counted !== requests.list + requests.single) {
      throw new Error(
        `the engine reported ${counted} requests, the emulator counted ${requests.list + requests.single}`,
      );
    }
    const finished = jobRows();
    // Submission order (local ids), as the naive side's list is.
    const jobIds = finished
      .filter((j) => j.jobId)
      .sort((a, b) => a.localId - b.localId)
      .map((j) => j.jobId!);
    const lastAt = Math.max(...noticed.values());
    const { finishAt, pageSize } = await finishTimes(emulator, startedAt);
    return {
      jobs,
      startedAt,
      jobIds,
      requests,
      statusChecksPerWindow: windowsOf(
        rounds.map((r) => ({ at: r.at, count: r.report.listPages + r.report.singles })),
        startedAt,
        lastAt,
      ),
      detailFetches: rounds.reduce((sum, r) => sum + r.report.terminalFetches, 0),
      detectionMs: detectionOf(jobIds, noticed, finishAt),
      listPageSize: pageSize,
      finishedOk: finished.filter((j) => j.state === 'succeeded').length,
      sendingMs,
      posts: byRoute['POST /images/generation'] ?? 0,
      rounds: rounds.length,
      roundEnds: rounds.map((r) => ({
        at: r.at - startedAt,
        listPages: r.report.listPages,
        fetches: r.report.terminalFetches + r.report.singles,
      })),
    };
  } finally {
    await engine.stop();
    cache.close();
    client.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const perJob = (r: PollRun): number => (r.requests.list + r.requests.single) / r.finishedOk;
const perTick = (r: PollRun): number => {
  const active = r.statusChecksPerWindow.filter((n) => n > 0);
  return active.reduce((a, b) => a + b, 0) / Math.max(1, active.length);
};

export const batchPolling: Scenario = {
  id: 'batch-polling',
  title: '9 batch polling',
  async run(ctx: BenchContext) {
    const reps = ctx.quick ? 1 : 3;
    const atelier: BatchRun[] = [];
    const naive: PollRun[] = [];
    for (let rep = 0; rep < reps; rep += 1) {
      const seed = 33_000 + rep;
      // Alternate which side goes first, so a slow spell of the machine does not always hit one side.
      const a = rep % 2 === 0 ? await runAtelierBatch(JOBS, seed, ctx.workDir) : null;
      const n = await runNaive(JOBS, seed);
      const at = a ?? (await runAtelierBatch(JOBS, seed, ctx.workDir));
      if (JSON.stringify([...at.jobIds].sort()) !== JSON.stringify([...n.jobIds].sort()))
        throw new Error(`seed ${seed}: the two emulators made different jobs; the comparison would be unfair`);
      if (at.finishedOk !== JOBS || n.finishedOk !== JOBS) throw new Error('not every job finished successfully');
      if (at.posts !== JOBS) throw new Error(`the batch sent ${at.posts} requests for ${JOBS} items`);
      atelier.push(at);
      naive.push(n);
      ctx.log(
        `seed ${seed}: batch sent in ${(at.sendingMs / 1000).toFixed(1)} s (virtual), ${at.rounds} poll rounds, ` +
          `${at.requests.list} list pages + ${at.requests.single} job GETs (${perJob(at).toFixed(3)} a job; ` +
          `naive ${perJob(n).toFixed(2)})`,
      );
    }
    const pageSize = atelier[0]?.listPageSize ?? naive[0]?.listPageSize ?? 50;
    const bound = Math.ceil(JOBS / pageSize) + 1;
    const worst = max(atelier.flatMap((r) => r.statusChecksPerWindow));
    const value = median(atelier.map(perJob));
    const detection = median(atelier.flatMap((r) => r.detectionMs));
    const naiveDetection = median(naive.flatMap((r) => r.detectionMs));
    const fraction = (ms: number | null) => (ms === null ? null : ms / POLL_INTERVAL_MS);
    return {
      rows: [
        row({
          scenario: this.title,
          figure: `(b) service requests per completed job, one batch of ${JOBS.toLocaleString('en-US')}`,
          unit: '',
          value,
          baseline: median(naive.map(perJob)),
          baselineName: 'naive poller',
          goal: `≤ ${REQUESTS_PER_JOB_GOAL}`,
          met: value === null ? null : value <= REQUESTS_PER_JOB_GOAL,
        }),
        row({
          scenario: this.title,
          figure: `(a) status checks per tick, same batch (worst tick ${worst ?? '—'})`,
          unit: '',
          value: median(atelier.map(perTick)),
          baseline: median(naive.map(perTick)),
          baselineName: 'naive poller',
          goal: `worst ≤ ${bound}`,
          met: worst === null ? null : worst <= bound,
        }),
        row({
          scenario: this.title,
          figure: `latency ÷ poll interval, median, same batch (${atelier.reduce((n, r) => n + r.detectionMs.length, 0)} jobs)`,
          unit: '',
          value: fraction(detection),
          baseline: fraction(naiveDetection),
          baselineName: 'naive poller',
          goal: `≤ ${DETECTION_GOAL}`,
          met: detection === null ? null : detection / POLL_INTERVAL_MS <= DETECTION_GOAL,
        }),
      ],
      details: {
        jobs: JOBS,
        listPageSize: pageSize,
        atelier: atelier.map(({ detectionMs: _d, jobIds: _j, ...rest }) => rest),
        naive: naive.map(({ detectionMs: _d, jobIds: _j, ...rest }) => rest),
      },
    };
  },
};
