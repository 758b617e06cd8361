// Generate over a credit cap, against a fake core checked with the channels' schemas: with the form's
// verdict "over", nothing is held or sent until the user answers; "Generate anyway" sends it with
// overBudget; Cancel sends nothing; a refusal the core makes anyway (over_budget) asks the same.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeCore, installFakeCore, ok } from '../test-support/fake-core.ts';
import { jobRecord } from '../test-support/records.ts';

const core = fakeCore({ 'jobs:submit': (request) => ok(jobRecord({ localId: 5, kind: request.kind })) });
installFakeCore(core);
const { submitGeneration } = await import('./submit-generation.ts');
const { budget, capProblem } = await import('../state/budget.svelte.ts');
const { SEND_DELAY_MS } = await import('../state/queue.svelte.ts');

const REQUEST = { kind: 'image', body: { modelID: 'imagea', prompt: 'a kettle' } } as const;
const OVER = { ok: false, reason: 'This needs about 24 credits; 190 of your 200 daily credits are used.' } as const;
let unhost: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  core.calls.length = 0;
  unhost = budget.hostDialog();
});
afterEach(() => {
  unhost();
  vi.useRealTimers();
});

describe('Generate over a credit cap', () => {
  it('asks first; Cancel sends nothing, "Generate anyway" sends it with the override', async () => {
    await submitGeneration(REQUEST, { checked: OVER });
    expect(budget.override?.reason).toBe(OVER.reason);
    budget.answerOverride(false);
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS * 2);
    expect(core.argsOf('jobs:submit')).toEqual([]);

    await submitGeneration(REQUEST, { checked: OVER });
    budget.answerOverride(true);
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS);
    expect(core.argsOf('jobs:submit')).toEqual([{ ...REQUEST, overBudget: true }]);
  });

  it('sends within the caps without asking', async () => {
    await Promise.all([
      submitGeneration(REQUEST, { checked: { ok: true } }),
      vi.advanceTimersByTimeAsync(SEND_DELAY_MS),
    ]);
    expect(budget.override).toBeNull();
    expect(core.argsOf('jobs:submit')).toEqual([REQUEST]);
  });

  it('asks the same when the core refuses it over the cap, and sends it at once on "Generate anyway"', async () => {
    let refusals = 1;
    core.handle('jobs:submit', (request) =>
      !request.overBudget && refusals-- > 0
        ? { ok: false, error: { code: 'over_budget', message: OVER.reason } }
        : ok(jobRecord({ localId: 6, kind: request.kind })),
    );
    await Promise.all([submitGeneration(REQUEST), vi.advanceTimersByTimeAsync(SEND_DELAY_MS)]);
    expect(budget.override?.reason).toBe(OVER.reason);
    budget.answerOverride(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(core.argsOf('jobs:submit')).toEqual([REQUEST, { ...REQUEST, overBudget: true }]);
  });

  it('words a cap typed in Settings with the core’s own rule', () => {
    expect(capProblem('daily', undefined)).toBeNull();
    expect(capProblem('daily', 200)).toBeNull();
    expect(capProblem('daily', 0)).toBe('The daily cap must be at least 1 credit. Leave it empty to have no cap.');
    expect(capProblem('monthly', 2.5)).toBe('The monthly cap must be a whole number of credits.');
    expect(capProblem('monthly', Number.NaN)).toBe('The monthly cap must be a number of credits.');
  });
});
