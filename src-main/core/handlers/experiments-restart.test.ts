// An experiment survives a restart mid-run: the core stops with cells not sent yet (the batch
// waits out a 429's Retry-After), a new core on the same data folder resumes it, every cell ends
// with its own job, and the service saw exactly one request per cell (plus the one it refused
// with 429, which certainly created nothing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import type { Result } from '../../contract/errors.ts';
import type { ExperimentDetailInfo } from '../../contract/ipc/experiments.ts';
import type { InvokeArgs, InvokeChannel, InvokeResult } from '../../contract/ipc.ts';
import { createCore, type Core } from '../core.ts';

const host = { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PROMPTS = ['a heron', 'a fox', 'an owl', 'a hare', 'a wren', 'a stoat', 'a newt', 'a crane'];

describe('an experiment across a restart', () => {
  let emulator: RunningEmulator;
  let dataDir: string;
  let core: Core | null = null;
  const posts = () => emulator.control.stats().byRoute['POST /images/generation'] ?? 0;
  const value = async <C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<InvokeResult<C>> => {
    const result = (await core!.dispatch(channel, args)) as Result<InvokeResult<C>>;
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value;
  };
  const open = () =>
    createCore({
      dataDir,
      host,
      demo: { start: async () => ({ baseUrl: emulator.url, apiKey: 'demo-key' }), stop: async () => {} },
      logError: () => {},
    });

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 20, seed: 13 });
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-experiment-restart-'));
  });
  afterAll(async () => {
    await core?.close();
    await emulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes after a restart with cells pending: all cells finish, one request each', async () => {
    core = await open();
    await value('account:use-demo', undefined);
    emulator.control.resetStats();
    // The first request is answered 429 (wait 8 s): the batch sends nothing new until it went through.
    emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', rateLimit: { count: 1, retryAfterSeconds: 8 } }],
    });
    const started = await value('experiments:start', {
      base: { kind: 'image', body: { modelID: 'imagea', prompt: 'x' } },
      axes: [{ kind: 'prompt', values: PROMPTS }],
    });
    // Stopped once the batch waits and no request is on its way (each answered, or waiting to be resent).
    let waiting = false;
    for (let i = 0; i < 500 && !waiting; i += 1) {
      const jobs = await value('jobs:list', undefined);
      waiting =
        posts() >= 4 &&
        jobs.some((job) => job.resendAt !== null) &&
        jobs.every((job) => job.resendAt !== null || job.jobId !== null);
      if (!waiting) await sleep(10);
    }
    expect(waiting).toBe(true);
    const before = await value('experiments:get', { id: started.id });
    const pending = before.cells.filter((c) => c.jobLocalId === null).length;
    expect(pending).toBeGreaterThan(0);
    await core.close();
    core = null;
    const sentBefore = posts();
    emulator.control.clearFaults();
    console.log(`[experiments] stopped with ${pending} of 8 cells not sent, after ${sentBefore} POSTs (one 429)`);

    core = await open();
    let done: ExperimentDetailInfo | null = null;
    for (let i = 0; i < 600 && !done; i += 1) {
      const detail = await value('experiments:get', { id: started.id });
      if (detail.state === 'done' && detail.cells.every((c) => c.jobState === 'succeeded')) done = detail;
      else await sleep(100);
    }
    expect(done).not.toBeNull();
    expect(done!.finished).toBe(8);
    expect(new Set(done!.cells.map((c) => c.jobLocalId)).size).toBe(8);
    expect(done!.cells.every((c) => c.outputs.length > 0)).toBe(true);
    // Eight jobs made, each once; the ninth request was the one refused with 429.
    expect(posts()).toBe(9);
  }, 120_000);
});
