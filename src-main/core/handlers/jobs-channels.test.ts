// The jobs, training and uploads channels through the real core and dispatcher, against the
// emulator in demo mode: arguments refused by shape or by the rules, a job followed to its end on
// real timers, and the engine stopped when the account goes away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../emulator/index.ts';
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import type { Core } from '../core.ts';
import { startDemoCore, type DemoCore } from '../test-support/demo-core.ts';

describe('jobs channels', () => {
  let demo: DemoCore;
  let emulator: RunningEmulator;
  let core: Core;
  const changed: JobInfo[] = [];

  beforeAll(async () => {
    // 20× time: a 15–30 s image job is done by the engine's first 5 s poll.
    demo = await startDemoCore({ emulator: { timeScale: 20, seed: 4 }, name: 'jobs-core' });
    ({ emulator, core } = demo);
    core.events.subscribe((event, payload) => {
      if (event === 'jobs:changed') changed.push(payload as JobInfo);
    });
  });
  afterAll(() => demo?.close());

  it('needs an account first', async () => {
    expect(await core.dispatch('jobs:list', undefined)).toMatchObject({ ok: false, error: { code: 'auth' } });
  });

  it('refuses bodies by shape, then by the model’s rules, before anything is sent', async () => {
    expect((await core.dispatch('account:use-demo', undefined)).ok).toBe(true);
    emulator.control.resetStats();
    expect(await core.dispatch('jobs:submit', { kind: 'image', body: { prompt: 'no model' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'body.modelID' },
    });
    expect(
      await core.dispatch('jobs:submit', {
        kind: 'image',
        body: { modelID: 'imagea', prompt: 'x', aspectRatio: '7:5' },
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'aspectRatio', fields: [expect.objectContaining({ field: 'aspectRatio' })] },
    });
    expect(await core.dispatch('jobs:submit', { kind: 'upscale', body: { imageID: 'a', extra: 1 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(
      await core.dispatch('jobs:history', { start: '2026-01-01T00:00:00Z', end: '2026-01-09T00:00:00Z' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'end' },
    });
    expect(emulator.control.stats().byRoute['POST /images/generation'] ?? 0).toBe(0);
  });

  it('submits, follows the job on real timers and lists it with its outputs', async () => {
    const submitted = await core.dispatch('jobs:submit', {
      kind: 'image',
      body: { modelID: 'imagea', prompt: 'a quiet harbor', numImages: 2 },
    });
    expect(submitted).toMatchObject({ ok: true, value: { state: 'queued', prompt: 'a quiet harbor' } });
    const localId = (submitted as { value: JobInfo }).value.localId;
    const until = Date.now() + 15_000;
    while (!changed.some((job) => job.localId === localId && job.state === 'succeeded') && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const listed = await core.dispatch('jobs:list', { limit: 10 });
    expect(listed).toMatchObject({ ok: true, value: [expect.objectContaining({ localId, state: 'succeeded' })] });
    expect((listed as { value: JobInfo[] }).value[0]!.outputs).toHaveLength(2);
    expect(await core.dispatch('jobs:get', { localId: 999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await core.dispatch('training:status', { modelId: 'nope' })).toMatchObject({
      ok: true,
      value: { state: 'idle' },
    });
    expect(await core.dispatch('uploads:list', undefined)).toEqual({ ok: true, value: [] });
  }, 20_000);

  it('stops the engine when the account closes', async () => {
    expect((await core.dispatch('account:leave-demo', undefined)).ok).toBe(true);
    expect(await core.dispatch('jobs:list', undefined)).toMatchObject({ ok: false, error: { code: 'auth' } });
  });
});
