// The two pollers of scenarios 1 and 2, each against its own emulator (same seed, so the same job ids
// and durations) at time-scale 1, with the waiting skipped: virtual time jumps to the next moment
// something is due (Atelier's next engine timer, the naive poller's next 5 s check). Request counts are
// the emulator's own; detection latency is virtual time from the job's finish to the client noticing.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator/index.ts';
import type { JobInfo } from '../src-main/contract/ipc/jobs.ts';
import { createServiceClient } from '../src-main/core/api/service-client.ts';
import { openAccountDb } from '../src-main/core/db/account-db.ts';
import { createEventBus } from '../src-main/core/events.ts';
import { createJobsEngine } from '../src-main/core/jobs/engine.ts';
import type { RoundReport } from '../src-main/core/jobs/poll-round.ts';
import { jobsServiceFromClient } from '../src-main/core/jobs/service-port.ts';
import { createManualTime } from '../src-main/core/jobs/test-support/manual-time.ts';
import { silentLogger } from '../src-main/core/log/index.ts';

export const POLL_INTERVAL_MS = 5_000;
export const API_KEY = 'demo-key';
/** Jobs take 15–30 s on the emulator; anything still running after this is a bug, not a slow job. */
export const VIRTUAL_LIMIT_MS = 10 * 60_000;
const SUBMIT_CONCURRENCY = 8;

export interface PollRun {
  jobs: number;
  /** Virtual time of the first submission. */
  startedAt: number;
  /** Service job ids in submission order. */
  jobIds: string[];
  /** Requests the emulator counted after the submissions (POSTs excluded). */
  requests: { list: number; single: number };
  /** Status checks (list pages + single status GETs) per 5 s window since startedAt. */
  statusChecksPerWindow: number[];
  /** GETs of a finished job to read its outputs (Atelier's detail fetch; the naive poller has none apart). */
  detailFetches: number;
  /** Virtual ms from the emulator finishing each job to the client noticing (its event / its poll). */
  detectionMs: number[];
  /** Jobs per GET /jobs page when the listing had more than one page (the emulator's page size). */
  listPageSize: number | null;
  finishedOk: number;
}

export const body = (i: number) => ({ modelID: 'imagea', prompt: `bench scene ${i}`, numImages: 1 });

async function api<T>(emulator: RunningEmulator, method: string, path: string, payload?: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${API_KEY}`,
      'api-version': '1',
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  const envelope = (await response.json()) as { status: string; result: T; message?: string };
  if (envelope.status !== 'OK') throw new Error(`${method} ${path}: ${envelope.message ?? response.status}`);
  return envelope.result;
}

export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/** When the emulator finished each job (its summary's updatedAt), read after the counting ended. */
export async function finishTimes(
  emulator: RunningEmulator,
  since: number,
): Promise<{ finishAt: Map<string, number>; pageSize: number | null }> {
  const finishAt = new Map<string, number>();
  let pageSize: number | null = null;
  let token = '';
  const start = new Date(since - 60_000).toISOString();
  const end = new Date(emulator.control.now() + 60_000).toISOString();
  do {
    const query = new URLSearchParams(token ? { pageToken: token } : { start, end });
    const page = await api<{ jobs: { jobId: string; status: string; updatedAt: string }[]; nextPageToken: string }>(
      emulator,
      'GET',
      `/jobs?${query}`,
    );
    if (page.nextPageToken && pageSize === null) pageSize = page.jobs.length;
    for (const job of page.jobs) if (job.status === 'success') finishAt.set(job.jobId, Date.parse(job.updatedAt));
    token = page.nextPageToken;
  } while (token);
  return { finishAt, pageSize };
}

export function windowsOf(events: { at: number; count: number }[], startedAt: number, lastAt: number): number[] {
  const windows = new Array<number>(Math.max(1, Math.ceil((lastAt - startedAt) / POLL_INTERVAL_MS))).fill(0);
  for (const e of events) {
    const index = Math.min(windows.length - 1, Math.max(0, Math.floor((e.at - startedAt) / POLL_INTERVAL_MS)));
    windows[index] = windows[index]! + e.count;
  }
  return windows;
}

export function detectionOf(jobIds: string[], noticed: Map<string, number>, finishAt: Map<string, number>): number[] {
  return jobIds.flatMap((id) => {
    const seen = noticed.get(id);
    const done = finishAt.get(id);
    return seen === undefined || done === undefined ? [] : [seen - done];
  });
}

/** Atelier's real jobs engine (outbox, batched poll rounds, terminal fetches), on the emulator's clock. */
export async function runAtelier(jobs: number, seed: number, workDir: string): Promise<PollRun> {
  const emulator = await startEmulator({ seed, timeScale: 1 });
  const dir = mkdtempSync(join(workDir, 'atelier-'));
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
  try {
    engine.start();
    const startedAt = emulator.control.now();
    const localIds: number[] = new Array(jobs);
    await eachLimited(
      Array.from({ length: jobs }, (_, i) => i),
      SUBMIT_CONCURRENCY,
      async (i) => {
        localIds[i] = (await engine.submit({ kind: 'image', body: body(i) })).localId;
      },
    );
    const jobIds = localIds.map((id) => engine.get(id).jobId!);
    emulator.control.resetStats();
    rounds.length = 0;
    const open = () =>
      localIds.filter((id) => ['submitting', 'queued', 'running'].includes(engine.get(id).state)).length;
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
    const byRoute = emulator.control.stats().byRoute;
    const requests = { list: byRoute['GET /jobs'] ?? 0, single: byRoute['GET /jobs/:id'] ?? 0 };
    const counted = rounds.reduce((sum, r) => sum + r.report.requests, 0);
    if (counted !== requests.list + requests.single) {
      throw new Error(
        `the engine reported ${counted} requests, the emulator counted ${requests.list + requests.single}`,
      );
    }
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
      finishedOk: localIds.filter((id) => engine.get(id).state === 'succeeded').length,
    };
  } finally {
    await engine.stop();
    cache.close();
    client.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The spec's advice taken literally: GET /jobs/{id} for every unfinished job every 5 s after its submission. */
export async function runNaive(jobs: number, seed: number): Promise<PollRun> {
  const emulator = await startEmulator({ seed, timeScale: 1 });
  try {
    const startedAt = emulator.control.now();
    const jobIds: string[] = new Array(jobs);
    const nextPollAt = new Map<string, number>();
    await eachLimited(
      Array.from({ length: jobs }, (_, i) => i),
      SUBMIT_CONCURRENCY,
      async (i) => {
        const trigger = await api<{ jobId: string }>(emulator, 'POST', '/images/generation', body(i));
        jobIds[i] = trigger.jobId;
        nextPollAt.set(trigger.jobId, emulator.control.now() + POLL_INTERVAL_MS);
      },
    );
    emulator.control.resetStats();
    const noticed = new Map<string, number>();
    const checks: { at: number; count: number }[] = [];
    while (nextPollAt.size > 0) {
      const next = Math.min(...nextPollAt.values());
      if (next - startedAt > VIRTUAL_LIMIT_MS)
        throw new Error(`jobs still running after ${VIRTUAL_LIMIT_MS / 60_000} virtual minutes`);
      const now = emulator.control.now();
      if (next > now) emulator.control.advanceClock(next - now);
      const due = [...nextPollAt].filter(([, at]) => at <= emulator.control.now()).map(([id]) => id);
      checks.push({ at: emulator.control.now(), count: due.length });
      await eachLimited(due, SUBMIT_CONCURRENCY, async (id) => {
        const job = await api<{ status: string; images?: unknown[] }>(emulator, 'GET', `/jobs/${id}`);
        if (['created', 'queued', 'running'].includes(job.status.toLowerCase())) {
          nextPollAt.set(id, nextPollAt.get(id)! + POLL_INTERVAL_MS);
        } else {
          noticed.set(id, emulator.control.now());
          nextPollAt.delete(id);
        }
      });
    }
    const byRoute = emulator.control.stats().byRoute;
    const requests = { list: byRoute['GET /jobs'] ?? 0, single: byRoute['GET /jobs/:id'] ?? 0 };
    const lastAt = Math.max(...noticed.values());
    const { finishAt, pageSize } = await finishTimes(emulator, startedAt);
    return {
      jobs,
      startedAt,
      jobIds,
      requests,
      statusChecksPerWindow: windowsOf(checks, startedAt, lastAt),
      detailFetches: 0,
      detectionMs: detectionOf(jobIds, noticed, finishAt),
      listPageSize: pageSize,
      finishedOk: finishAt.size,
    };
  } finally {
    await emulator.close();
  }
}
