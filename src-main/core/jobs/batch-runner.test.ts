// Batches through the real outbox against the real emulator on loopback: paced (at most K
// unanswered), slowed by a 429 (nothing new while a request waits for its Retry-After), refused
// rows never sent, cancel stops the rest, pause/resume, the budget port, and a SIGKILL mid-batch.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import { planBatch } from '../../contract/batch/batch-plan.ts';
import { readBatchCsv, readPromptList } from '../../contract/batch/batch-source.ts';
import type { NewBatchItem } from '../db/repos/batches-repo.ts';
import type { BatchBudget } from './batch-runner.ts';
import { startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';

const CHILD = fileURLToPath(new URL('./test-support/batch-child.ts', import.meta.url));

let h: EngineHarness | undefined;
let emulator: RunningEmulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  h = emulator = dir = undefined;
});

const posts = (e: RunningEmulator): number => e.control.stats().byRoute['POST /images/generation'] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Real time passes (HTTP on loopback) while `step` runs between checks; gives up after `limitMs`. */
async function until(done: () => boolean, what: string, step: () => void = () => {}, limitMs = 30_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    step();
    await sleep(5);
  }
}

/** A plan's jobs and refused rows as batch items, in row order (what batches:start stores). */
function itemsOf(plan: ReturnType<typeof planBatch>): NewBatchItem[] {
  return [
    ...plan.jobs.map((job) => ({
      row: job.row,
      expansion: null,
      of: job.of,
      kind: job.kind,
      request: job.body,
      state: 'pending' as const,
      problem: null,
      estimate: 2,
    })),
    ...plan.refused.map((r) => ({
      row: r.row,
      expansion: r.expansion,
      of: r.of,
      kind: 'image' as const,
      request: {},
      state: 'refused' as const,
      problem: r.message,
      estimate: null,
    })),
  ].sort((a, b) => a.row - b.row);
}

const prompts = (n: number) =>
  planBatch(readPromptList(Array.from({ length: n }, (_, i) => `prompt ${i + 1}`).join('\n')), { model: 'imagea' });

describe('a batch through the outbox', () => {
  it('sends the 18 valid jobs of 20 rows once each, at most 4 unanswered at a time, never a refused row', async () => {
    h = await startEngineHarness({ engine: { batchInFlight: 4 } });
    h.emulator.control.setFaults({ rules: [{ method: 'POST', path: '/images/generation', latencyMs: 150 }] });
    h.engine.start();
    const rows = Array.from({ length: 20 }, (_, i) =>
      i === 4 ? 'row five,imagea,9' : i === 11 ? 'row twelve,imagea-3,1' : `row ${i + 1},imagea,1`,
    );
    const plan = planBatch(readBatchCsv(['prompt,model,num-images', ...rows].join('\n')));
    const batch = h.engine.batches.create('twenty', itemsOf(plan));
    let most = 0;
    await until(
      () => h!.engine.batches.get(batch.id).state === 'done' && h!.cache.batches.unanswered(batch.id).length === 0,
      'the batch to send everything',
      () => void (most = Math.max(most, h!.cache.batches.unanswered(batch.id).length)),
    );
    const done = h.engine.batches.get(batch.id);
    console.log(`[batches] 20 rows, 2 refused: ${posts(h.emulator)} POSTs, at most ${most} unanswered at once`);
    expect(posts(h.emulator)).toBe(18);
    expect(most).toBeLessThanOrEqual(4);
    expect(most).toBeGreaterThan(1);
    expect(done.items).toEqual({ pending: 0, sent: 18, refused: 2, cancelled: 0, paused: 0 });
    expect(done.list.filter((i) => i.state === 'refused').map((i) => i.problem)).toEqual([
      'row 5: numImages must be an integer from 1 to 4 on imagea; you gave 9',
      expect.stringMatching(/^row 12: modelID/),
    ]);
    const jobIds = h.engine.list().map((job) => job.jobId);
    expect(new Set(jobIds).size).toBe(18);
    expect(h.engine.list().every((job) => job.state === 'queued' || job.state === 'running')).toBe(true);
  }, 60_000);

  it('slows down on a 429: nothing new is sent until the waiting request went through', async () => {
    h = await startEngineHarness({ engine: { batchInFlight: 2 } });
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', rateLimit: { count: 1, retryAfterSeconds: 20 } }],
    });
    h.engine.start();
    const batch = h.engine.batches.create('six', itemsOf(prompts(6)));
    const waiting = () => h!.cache.batches.unanswered(batch.id).some((i) => i.job_resend_at !== null);
    await until(() => waiting() && h!.cache.batches.unanswered(batch.id).length === 1, 'the 429 to be waited out');
    await h.engine.settled();
    const before = posts(h.emulator);
    // The first two went out together; the one answered 429 waits 20 s, and so does the batch.
    expect(before).toBe(2);
    await h.advance(10_000);
    await sleep(100);
    expect(posts(h.emulator)).toBe(before);
    expect(h.engine.batches.get(batch.id).items.pending).toBe(4);
    await h.advance(12_000);
    await until(() => h!.engine.batches.get(batch.id).state === 'done', 'the rest to be sent');
    await until(() => h!.cache.batches.unanswered(batch.id).length === 0, 'the last answers');
    expect(posts(h.emulator)).toBe(7);
    expect(new Set(h.engine.list().map((job) => job.jobId)).size).toBe(6);
  }, 60_000);

  it('cancel stops the rest: only what was sent before it is sent', async () => {
    h = await startEngineHarness({ engine: { batchInFlight: 1 } });
    h.emulator.control.setFaults({ rules: [{ method: 'POST', path: '/images/generation', latencyMs: 300 }] });
    h.engine.start();
    const batch = h.engine.batches.create('eight', itemsOf(prompts(8)));
    await until(() => posts(h!.emulator) >= 2, 'two POSTs');
    const cancelled = h.engine.batches.cancel(batch.id);
    expect(cancelled.state).toBe('cancelled');
    await until(() => h!.cache.batches.unanswered(batch.id).length === 0, 'the POST in flight to end');
    await h.engine.settled();
    await h.advance(30_000);
    const after = h.engine.batches.get(batch.id);
    expect(after.items.sent).toBe(posts(h.emulator));
    expect(after.items.sent).toBeLessThanOrEqual(3);
    expect(after.items.cancelled).toBe(8 - after.items.sent);
    expect(() => h!.engine.batches.resume(batch.id)).toThrow('This batch was cancelled.');
  }, 60_000);

  it('pauses and resumes; the budget pauses it with its reason before an item it refuses', async () => {
    let allowed = 3;
    const budget: BatchBudget = {
      check: (credits) =>
        allowed >= credits / 2 && allowed-- > 0
          ? { ok: true }
          : { ok: false, reason: 'This needs about 2 credits; 200 of your 200 daily credits are used.' },
    };
    h = await startEngineHarness({ engine: { batchInFlight: 1, budget } });
    h.engine.start();
    const batch = h.engine.batches.create('five', itemsOf(prompts(5)));
    await until(() => h!.engine.batches.get(batch.id).state === 'paused', 'the cap to stop it');
    await h.engine.settled();
    const paused = h.engine.batches.get(batch.id);
    expect(paused.pausedReason).toBe(
      'Stopped at your credit cap. This needs about 2 credits; 200 of your 200 daily credits are used.',
    );
    expect(paused.stoppedAtCap).toBe(true);
    expect(paused.items).toMatchObject({ sent: 3, paused: 2 });
    expect(posts(h.emulator)).toBe(3);

    allowed = 100;
    h.engine.batches.resume(batch.id);
    await until(() => h!.engine.batches.get(batch.id).state === 'done', 'the rest after resume');
    expect(posts(h.emulator)).toBe(5);
    expect(() => h!.engine.batches.pause(batch.id)).toThrow('This batch has sent everything already.');
  }, 60_000);

  it('the user’s override goes past the caps: a batch started with it, and one resumed with it', async () => {
    const refusing: BatchBudget = { check: () => ({ ok: false, reason: 'Your daily cap of 10 credits is used up.' }) };
    h = await startEngineHarness({ engine: { batchInFlight: 2, budget: refusing } });
    h.engine.start();
    const anyway = h.engine.batches.create('anyway', itemsOf(prompts(3)), { overBudget: true });
    await until(() => h!.engine.batches.get(anyway.id).state === 'done', 'the overridden batch to send everything');
    expect(posts(h.emulator)).toBe(3);

    const capped = h.engine.batches.create('capped', itemsOf(prompts(2)));
    await until(() => h!.engine.batches.get(capped.id).state === 'paused', 'the cap to stop it');
    expect(h.engine.batches.get(capped.id)).toMatchObject({ stoppedAtCap: true, items: { sent: 0, paused: 2 } });
    // A plain resume asks the caps again: stopped again, nothing sent.
    h.engine.batches.resume(capped.id);
    await until(() => h!.engine.batches.get(capped.id).state === 'paused', 'the cap to stop it again');
    await h.engine.settled();
    expect(posts(h.emulator)).toBe(3);
    // A pause by the user is not a stop at the cap.
    h.engine.batches.pause(capped.id);
    expect(h.engine.batches.get(capped.id)).toMatchObject({ pausedReason: 'Paused by you.', stoppedAtCap: false });
    h.engine.batches.resume(capped.id, { overBudget: true });
    // Kept in the database: a restart does not stop it at the cap again.
    expect(h.cache.batches.get(capped.id)?.over_budget).toBe(1);
    expect(h.cache.batches.get(anyway.id)?.over_budget).toBe(1);
    await until(() => h!.engine.batches.get(capped.id).state === 'done', 'the rest past the cap');
    expect(posts(h.emulator)).toBe(5);
  }, 60_000);
});

describe('a batch killed mid-way', () => {
  it('resumes after a SIGKILL where it stopped: every item one job, none made twice', async () => {
    const COUNT = 12;
    emulator = await startEmulator({ seed: 31 });
    dir = mkdtempSync(join(tmpdir(), 'atelier-batch-kill-'));
    const dbFile = join(dir, 'atelier.db');
    emulator.control.setFaults({ rules: [{ method: 'POST', path: '/images/generation', latencyMs: 80 }] });
    const proc = spawn(process.execPath, [CHILD, emulator.url, dbFile, String(COUNT)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
    const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
    for (;;) {
      const next = await lines.next();
      if (next.done) throw new Error('the child ended early');
      const line = JSON.parse(next.value) as { event: string; sent?: number };
      if (line.event === 'progress' && (line.sent ?? 0) >= 5) break;
    }
    proc.kill('SIGKILL');
    await exited;
    emulator.control.clearFaults();
    const before = posts(emulator);
    expect(before).toBeLessThan(COUNT);

    h = await startEngineHarness({ runningEmulator: emulator, dbFile, engine: { batchInFlight: 1 } });
    h.engine.start();
    // Past the reconciliation window of a POST the kill may have cut (3 min).
    for (let i = 0; i < 60; i += 1) {
      await h.advance(5_000);
      await sleep(5);
    }
    const batch = h.engine.batches.list()[0]!;
    const detail = h.engine.batches.get(batch.id);
    const onService = new Set<string>();
    const now = h.time.now();
    for await (const page of h.client.listJobs({ start: new Date(now - 3_600_000), end: new Date(now) }))
      page.jobs.forEach((job) => onService.add(job.jobId));
    const jobs = h.engine.list().filter((job) => !job.unattributed);
    console.log(
      `[batches] SIGKILL mid-batch: ${before} POSTs before, ${posts(emulator)} in all, ${onService.size} jobs on the service`,
    );
    expect(detail.state).toBe('done');
    expect(detail.items.sent).toBe(COUNT);
    expect(onService.size).toBe(COUNT);
    expect(jobs).toHaveLength(COUNT);
    expect(new Set(detail.list.map((item) => item.jobLocalId)).size).toBe(COUNT);
    expect(jobs.every((job) => job.state === 'succeeded')).toBe(true);
  }, 90_000);
});
