// The batches channels through the real core and dispatcher, against the emulator in demo mode:
// a plan with estimates from the account's own jobs and refused rows, refused files and batches
// over the cap, start → list/get, batches:changed (pause/resume/cancel: jobs/batch-runner.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../emulator/index.ts';
import type { BatchInfo } from '../../contract/ipc/batches.ts';
import type { InvokeArgs, InvokeChannel, InvokeResult } from '../../contract/ipc.ts';
import type { Result } from '../../contract/errors.ts';
import type { Core } from '../core.ts';
import { startDemoCore, type DemoCore } from '../test-support/demo-core.ts';

describe('batches channels', () => {
  let demo: DemoCore;
  let emulator: RunningEmulator;
  let core: Core;
  /** The core's dispatcher, typed by the channel map (as the renderer's `invoke` is). */
  const call = <C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<Result<InvokeResult<C>>> =>
    core.dispatch(channel, args) as Promise<Result<InvokeResult<C>>>;
  const changed: BatchInfo[] = [];

  beforeAll(async () => {
    demo = await startDemoCore({ emulator: { timeScale: 20, seed: 5 }, name: 'batches-core' });
    ({ emulator, core } = demo);
    core.events.subscribe((event, payload) => {
      if (event === 'batches:changed') changed.push(payload as BatchInfo);
    });
    expect((await call('account:use-demo', undefined)).ok).toBe(true);
  });
  afterAll(() => demo?.close());

  const csv = 'prompt,model,num-images\na fox,imagea,1\nan owl,imagea,9\n{a cat|a dog},imagea,1\n';

  it('plans: the jobs with estimates, the refused rows in the rules’ words, nothing sent', async () => {
    emulator.control.resetStats();
    const plan = await call('batches:plan', { format: 'csv', text: csv });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.jobs.map((j) => [j.row, j.expansion, j.body['prompt']])).toEqual([
      [1, 1, 'a fox'],
      [3, 1, 'a cat'],
      [3, 2, 'a dog'],
    ]);
    expect(plan.value.refused.map((r) => r.message)).toEqual([
      'row 2: numImages must be an integer from 1 to 4 on imagea; you gave 9',
    ]);
    expect(plan.value.jobs.every((j) => 'credits' in j.estimate)).toBe(true);
    expect(emulator.control.stats().byRoute['POST /images/generation'] ?? 0).toBe(0);
  });

  it('refuses a file it cannot read and a batch over the cap, naming the text', async () => {
    expect(await call('batches:plan', { format: 'csv', text: 'prompt,colour\nx,y\n' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'text', message: expect.stringContaining('unknown column "colour"') },
    });
    const huge = '{a|b|c|d|e|f|g|h|i|j}'.repeat(5);
    expect(await call('batches:plan', { format: 'prompts', text: huge, settings: { model: 'imagea' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringContaining('100,000 jobs') },
    });
    expect(await call('batches:plan', { format: 'tsv', text: '' } as never)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(await call('batches:start', { format: 'csv', text: 'prompt,model\nx,imagea,9\n' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringContaining('Nothing to send') },
    });
  });

  it('starts, lists and gets a batch, saying each change; a finished one cannot be paused', async () => {
    emulator.control.resetStats();
    const started = await call('batches:start', { format: 'csv', text: csv, name: 'three animals' });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value).toMatchObject({ name: 'three animals', items: { refused: 1 } });
    expect(started.value.list.find((i) => i.state === 'refused')?.problem).toMatch(/^row 2: numImages/);
    const id = started.value.id;
    for (let i = 0; i < 200; i += 1) {
      const got = await call('batches:get', { id });
      if (got.ok && got.value.state === 'done' && got.value.list.every((it) => it.jobState !== 'submitting')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const done = await call('batches:get', { id });
    expect(done).toMatchObject({ ok: true, value: { state: 'done', items: { sent: 3, refused: 1, pending: 0 } } });
    expect(emulator.control.stats().byRoute['POST /images/generation']).toBe(3);
    const list = await call('batches:list', undefined);
    expect(list.ok && list.value.map((b) => b.id)).toContain(id);
    expect(changed.some((info) => info.id === id && info.state === 'done')).toBe(true);
    expect(await call('batches:pause', { id })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await call('batches:get', { id: 9999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  }, 30_000);
});
