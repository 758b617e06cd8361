// The experiments channels through the real core and dispatcher against the emulator (demo mode):
// a 3 models × 2 aspect ratios plan with estimates and mapping notes, nothing sent; a start that
// sends exactly one valid request per cell through the batch runner and fills the matrix; the cap
// refusing a start unless the user overrides it; plain refusals; the matrix read with the service
// gone; forgetting an experiment keeps its jobs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import type { Result } from '../../contract/errors.ts';
import type { ExperimentDetailInfo, ExperimentInfo, ExperimentPlanInput } from '../../contract/ipc/experiments.ts';
import type { InvokeArgs, InvokeChannel, InvokeResult } from '../../contract/ipc.ts';
import { validate } from '../../contract/rules/index.ts';
import { createCore, type Core } from '../core.ts';

const host = { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const HERON: ExperimentPlanInput = {
  base: {
    kind: 'image',
    body: { modelID: 'imagea', prompt: 'a heron at dawn', options: { imagea: { imageSize: '4K' } } },
  },
  axes: [
    { kind: 'model', values: ['imagea', 'imageb', 'imagec-2'] },
    { kind: 'aspectRatio', values: ['1:1', '21:9'] },
  ],
};

describe('experiments channels', () => {
  let emulator: RunningEmulator;
  let dataDir: string;
  let core: Core;
  const call = <C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<Result<InvokeResult<C>>> =>
    core.dispatch(channel, args) as Promise<Result<InvokeResult<C>>>;
  const value = async <C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<InvokeResult<C>> => {
    const result = await call(channel, args);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value;
  };
  const posts = () => emulator.control.stats().byRoute['POST /images/generation'] ?? 0;
  const changed: ExperimentInfo[] = [];

  /** Real time passes (HTTP on loopback) until every sent cell's job has ended. */
  async function finished(id: number): Promise<ExperimentDetailInfo> {
    for (let i = 0; i < 600; i += 1) {
      const detail = await value('experiments:get', { id });
      const ended = detail.cells.every(
        (c) => c.refused !== null || c.jobState === 'succeeded' || c.jobState === 'failed',
      );
      if (detail.state === 'done' && ended) return detail;
      await sleep(100);
    }
    throw new Error('the experiment did not finish');
  }

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 20, seed: 9 });
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-experiments-core-'));
    core = await createCore({
      dataDir,
      host,
      demo: { start: async () => ({ baseUrl: emulator.url, apiKey: 'demo-key' }), stop: async () => {} },
      logError: () => {},
    });
    core.events.subscribe((event, payload) => {
      if (event === 'experiments:changed') changed.push(payload as ExperimentInfo);
    });
    expect((await call('account:use-demo', undefined)).ok).toBe(true);
  });
  afterAll(async () => {
    await core.close();
    await emulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('plans 3 models × 2 aspect ratios: 6 cells with estimates and notes, nothing sent', async () => {
    emulator.control.resetStats();
    const plan = await value('experiments:plan', HERON);
    expect(plan.axes.map((a) => a.label)).toEqual(['Model', 'Aspect ratio']);
    expect(plan.rows.map((r) => r.label)).toEqual(['Image A', 'Image B', 'Image C 2']);
    expect(plan.columns.map((c) => c.label)).toEqual(['1:1', '21:9']);
    expect(plan.cells).toHaveLength(6);
    for (const cell of plan.cells) {
      expect(cell.refused).toBeNull();
      expect(validate({ kind: 'image', body: cell.body })).toEqual([]);
      expect(cell.estimate).toMatchObject({ basedOn: expect.any(Number) });
    }
    const imagecWide = plan.cells.find((c) => c.body['modelID'] === 'imagec-2' && c.column === 1)!;
    expect(imagecWide.notes.map((n) => n.message)).toContain('image size 4K → 2K: Image C 2 cannot make 4K at 21:9');
    expect(plan.budget).toEqual({ ok: true });
    expect(plan.unknownEstimates + plan.cells.filter((c) => c.estimate.credits !== null).length).toBe(6);
    expect(posts()).toBe(0);
  });

  it('starts: exactly one valid request per cell, the matrix filled from the library, each change said', async () => {
    emulator.control.resetStats();
    const started = await value('experiments:start', { ...HERON, name: 'heron grid' });
    expect(started).toMatchObject({ name: 'heron grid', cellCount: 6, state: 'running' });
    expect(started.cells.map((c) => [c.row, c.column])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
      [2, 0],
      [2, 1],
    ]);
    const done = await finished(started.id);
    expect(posts()).toBe(6);
    expect(done).toMatchObject({ state: 'done', finished: 6, failed: 0 });
    for (const cell of done.cells) {
      expect(cell.jobState).toBe('succeeded');
      expect(cell.error).toBeNull();
      expect(cell.outputs.length).toBeGreaterThan(0);
      expect(cell.outputs[0]).toMatchObject({ kind: 'image', modelId: cell.body['modelID'] });
    }
    expect(new Set(done.cells.map((c) => c.jobLocalId)).size).toBe(6);
    const seen = changed.filter((info) => info.id === started.id);
    expect(seen[0]).toMatchObject({ state: 'running' });
    expect(seen.at(-1)).toMatchObject({ state: 'done', finished: 6 });
    const list = await value('experiments:list', undefined);
    expect(list[0]).toMatchObject({ id: started.id, name: 'heron grid', cellCount: 6 });
  }, 90_000);

  it('refuses a start over the daily cap, saving and sending nothing; the override sends it all', async () => {
    // The first experiment's jobs are charged (the emulator reports credits): a 1-credit cap is used up.
    await value('budget:set-caps', { daily: 1, monthly: null });
    const small: ExperimentPlanInput = { ...HERON, axes: [{ kind: 'model', values: ['imagea', 'imageb'] }] };
    const plan = await value('experiments:plan', small);
    expect(plan.totalCredits).toBeGreaterThan(0);
    expect(plan.expectedSeconds).toEqual(expect.any(Number));
    expect(plan.budget).toMatchObject({ ok: false, reason: expect.stringContaining('daily cap of 1 credit') });
    emulator.control.resetStats();
    const before = (await value('experiments:list', undefined)).length;
    expect(await call('experiments:start', small)).toEqual({
      ok: false,
      error: { code: 'over_budget', message: (plan.budget as { reason: string }).reason },
    });
    expect((await value('experiments:list', undefined)).length).toBe(before);
    expect(posts()).toBe(0);

    const over = await value('experiments:start', { ...small, overBudget: true });
    const done = await finished(over.id);
    // Not paused at the cap by the batch runner: the user chose to go over it.
    expect(done).toMatchObject({ state: 'done', pausedReason: null, finished: 2 });
    expect(posts()).toBe(2);
    await value('budget:set-caps', { daily: null, monthly: null });
  }, 90_000);

  it('refuses bad axes in plain words and a plan whose every cell is refused', async () => {
    expect(await call('experiments:plan', { ...HERON, axes: [{ kind: 'seed', values: ['1', 'x'] }] })).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_argument',
        field: 'axes.0',
        message: expect.stringContaining('The seed “x” is not a whole number from 0 to 4294967295.'),
      },
    });
    const many = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
    expect(
      await call('experiments:plan', {
        ...HERON,
        axes: [
          { kind: 'seed', values: many(7) },
          { kind: 'numImages', values: many(7) },
        ],
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringContaining('at most 48 cells') },
    });
    emulator.control.resetStats();
    expect(
      await call('experiments:start', { ...HERON, axes: [{ kind: 'model', values: ['videoa-3.1', 'mdl_nothing'] }] }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/^Nothing to send/) },
    });
    expect(posts()).toBe(0);
    expect(await call('experiments:get', { id: 9999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('reads the matrix with the service gone; forgetting an experiment keeps its jobs', async () => {
    const [latest, first] = await value('experiments:list', undefined);
    const online = await value('experiments:get', { id: first!.id });
    await emulator.close();
    const offline = await value('experiments:get', { id: first!.id });
    expect(offline).toEqual(online);
    expect(offline.cells.every((c) => c.outputs.length > 0)).toBe(true);

    expect(await value('experiments:delete', { id: latest!.id })).toEqual({ id: latest!.id });
    expect(await call('experiments:get', { id: latest!.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect((await value('experiments:list', undefined)).map((e) => e.id)).toEqual([first!.id]);
    expect(await call('jobs:get', { localId: online.cells[0]!.jobLocalId! })).toMatchObject({ ok: true });
  });
});
