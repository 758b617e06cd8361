// The budget channels through the real core and dispatcher against the emulator (demo mode): caps
// refused unless whole positive numbers (nothing changed), per account, and jobs:submit refused over
// a cap — nothing reaches the service — unless the user chose to go over it (overBudget: true).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../emulator/index.ts';
import type { BudgetStatusInfo, SpendingInfo } from '../../contract/ipc/budget.ts';
import type { CostEstimateInfo, JobInfo } from '../../contract/ipc/jobs.ts';
import { dayKey } from '../budgets/local-calendar.ts';
import type { Core } from '../core.ts';
import { startDemoCore, type DemoCore } from '../test-support/demo-core.ts';

// imagea-2 costs 2 credits an image on the emulator.
const BODY = { modelID: 'imagea-2', prompt: 'a paper boat' };

describe('budget channels', () => {
  let demo: DemoCore;
  let emulator: RunningEmulator;
  let core: Core;
  const changed: JobInfo[] = [];
  const posts = () => emulator.control.stats().byRoute['POST /images/generation'] ?? 0;
  const value = async <T>(promise: Promise<{ ok: boolean }>): Promise<T> => {
    const result = await promise;
    expect(result).toMatchObject({ ok: true });
    return (result as unknown as { value: T }).value;
  };

  beforeAll(async () => {
    demo = await startDemoCore({ emulator: { timeScale: 20, seed: 7 }, name: 'budget' });
    ({ emulator, core } = demo);
    core.events.subscribe((event, payload) => {
      if (event === 'jobs:changed') changed.push(payload as JobInfo);
    });
  });
  afterAll(() => demo?.close());

  it('needs an account', async () => {
    expect(await core.dispatch('budget:status', undefined)).toMatchObject({ ok: false, error: { code: 'auth' } });
    expect(await core.dispatch('budget:set-caps', { daily: 5, monthly: null })).toMatchObject({
      ok: false,
      error: { code: 'auth' },
    });
  });

  it('has no caps until set; refuses anything but a whole positive number, changing nothing', async () => {
    expect((await core.dispatch('account:use-demo', undefined)).ok).toBe(true);
    expect(await value<BudgetStatusInfo>(core.dispatch('budget:status', undefined))).toMatchObject({
      caps: { daily: null, monthly: null },
      spentToday: 0,
      remainingToday: null,
    });
    const refusals: [unknown, string, string][] = [
      [{ daily: 0, monthly: null }, 'daily', 'The daily cap must be at least 1 credit. Leave it empty to have no cap.'],
      [{ daily: 2.5, monthly: null }, 'daily', 'The daily cap must be a whole number of credits.'],
      [
        { daily: -3, monthly: null },
        'daily',
        'The daily cap must be at least 1 credit. Leave it empty to have no cap.',
      ],
      [{ daily: 'ten', monthly: null }, 'daily', 'The daily cap must be a number of credits.'],
      [{ daily: null, monthly: Number.POSITIVE_INFINITY }, 'monthly', 'The monthly cap must be a number of credits.'],
      [{ daily: null, monthly: 1e12 }, 'monthly', 'The monthly cap can be at most 100,000,000 credits.'],
    ];
    for (const [args, field, message] of refusals) {
      expect(await core.dispatch('budget:set-caps', args as never)).toMatchObject({
        ok: false,
        error: { code: 'invalid_argument', field, message: expect.stringContaining(message) },
      });
    }
    expect(await core.dispatch('budget:set-caps', { daily: 5 } as never)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'monthly' },
    });
    expect(core.settings.get().creditCaps).toEqual({});
    // Not a setting the renderer changes by hand.
    expect(await core.dispatch('settings:update', { creditCaps: {} } as never)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
  });

  it('refuses a submission over the daily cap before sending it, and sends it with the override', async () => {
    const first = await value<JobInfo>(core.dispatch('jobs:submit', { kind: 'image', body: BODY }));
    const until = Date.now() + 15_000;
    while (!changed.some((j) => j.localId === first.localId && j.state === 'succeeded') && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The estimate reads the job list for the cost the service reported (2 credits).
    const estimate = await value<CostEstimateInfo>(core.dispatch('jobs:estimate', { kind: 'image', body: BODY }));
    expect(estimate.credits).toBe(2);

    const status = await value<BudgetStatusInfo>(core.dispatch('budget:set-caps', { daily: 3, monthly: 50 }));
    expect(status).toMatchObject({
      caps: { daily: 3, monthly: 50 },
      spentToday: 2,
      spentThisMonth: 2,
      remainingToday: 1,
      remainingThisMonth: 48,
    });
    expect(core.settings.get().creditCaps).toEqual({ demo: { daily: 3, monthly: 50 } });
    expect(await core.dispatch('budget:check', { credits: 2 })).toEqual({
      ok: true,
      value: { ok: false, reason: 'This needs about 2 credits; 2 of your 3 daily credits are used.' },
    });
    expect(await core.dispatch('budget:check', { credits: 1 })).toEqual({ ok: true, value: { ok: true } });
    expect(await core.dispatch('budget:check', { credits: -1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'credits' },
    });

    emulator.control.resetStats();
    expect(await core.dispatch('jobs:submit', { kind: 'image', body: { ...BODY, prompt: 'a second boat' } })).toEqual({
      ok: false,
      error: { code: 'over_budget', message: 'This needs about 2 credits; 2 of your 3 daily credits are used.' },
    });
    expect(posts()).toBe(0);
    // The rules still speak first: an invalid request is refused for what is wrong with it.
    expect(await core.dispatch('jobs:submit', { kind: 'image', body: { ...BODY, aspectRatio: '7:5' } })).toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });

    const sent = await value<JobInfo>(
      core.dispatch('jobs:submit', { kind: 'image', body: { ...BODY, prompt: 'a second boat' }, overBudget: true }),
    );
    expect(sent.state).toBe('queued');
    expect(posts()).toBe(1);
    // Queued and not charged yet: its estimate counts, so the cap is now used up.
    expect(await value<BudgetStatusInfo>(core.dispatch('budget:status', undefined))).toMatchObject({
      spentToday: 4,
      estimatedToday: 2,
      remainingToday: 0,
    });
    expect(await core.dispatch('jobs:submit', { kind: 'upscale', body: { imageID: 'x' } })).toMatchObject({
      ok: false,
      error: { code: 'over_budget', message: 'Your daily cap of 3 credits is used up: 4 credits today.' },
    });
  }, 30_000);

  it('reports the day’s credits by day and by model for the Spending view', async () => {
    const spending = await value<SpendingInfo>(core.dispatch('budget:spending', undefined));
    expect(spending.days).toHaveLength(30);
    expect(spending.days.at(-1)).toEqual({ date: dayKey(Date.now()), credits: 2, jobs: 1 });
    expect(spending.models).toEqual([{ modelId: 'imagea-2', credits: 2, jobs: 1 }]);
    expect(spending).toMatchObject({ monthTotal: 2, caps: { daily: 3, monthly: 50 } });
  });

  it('keeps each account’s caps to itself, and turns them off', async () => {
    expect(
      await value<BudgetStatusInfo>(core.dispatch('budget:set-caps', { daily: null, monthly: null })),
    ).toMatchObject({
      caps: { daily: null, monthly: null },
    });
    expect(core.settings.get().creditCaps).toEqual({});
    core.settings.update({ creditCaps: { 'another-account': { daily: 1, monthly: null } } });
    expect(await value<BudgetStatusInfo>(core.dispatch('budget:status', undefined))).toMatchObject({
      caps: { daily: null, monthly: null },
    });
  });
});
