// "Try across models…" state against a fake core that checks every call with the contract's own schema:
// the dialog opens on the form's request with its model ticked, asks the core for a plan of exactly the
// axes shown (an older answer never replaces a newer one), sends nothing until start, and over a cap
// sends only with the explicit override — a refusal at start asks for it again.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentDetailInfo, ExperimentPlanInfo, ExperimentPlanInput } from '@contract/ipc/experiments.ts';
import type { Result } from '@contract/errors.ts';
import { fakeCore, installFakeCore, ok, settle } from '../test-support/fake-core.ts';

const core = fakeCore();
installFakeCore(core);
// router.go() keeps the view in the address (no DOM here).
Object.assign(globalThis, { history: { replaceState: () => {} } });
const { tryAcrossModels: dialog } = await import('./try-across-models.svelte.ts');

const BODY = { modelID: 'imagea', prompt: 'a red kite over dunes', aspectRatio: '1:1', numImages: 1 };

function planOf(input: ExperimentPlanInput, budget: ExperimentPlanInfo['budget'] = { ok: true }): ExperimentPlanInfo {
  const [rows, columns = { kind: 'seed', values: [''] }] = input.axes;
  const cells = rows!.values.flatMap((_, row) =>
    columns.values.map((__, column) => ({
      row,
      column,
      kind: 'image' as const,
      body: input.base.body,
      estimate: { credits: 2, basedOn: 1, low: 2, high: 2 },
      notes: [],
      refused: null,
    })),
  );
  return {
    axes: input.axes.map((a) => ({ kind: a.kind, key: a.key ?? null, label: a.kind })),
    rows: rows!.values.map((value) => ({ value, label: value })),
    columns: columns.values.map((value) => ({ value, label: value })),
    cells,
    totalCredits: 2 * cells.length,
    unknownEstimates: 0,
    expectedSeconds: 60,
    budget,
  };
}

function started(input: ExperimentPlanInput & { name?: string }): Result<ExperimentDetailInfo> {
  const plan = planOf(input);
  return ok({
    id: 7,
    name: input.name ?? '',
    createdAt: 0,
    state: 'running',
    pausedReason: null,
    batchId: 3,
    axes: plan.axes,
    cellCount: plan.cells.length,
    finished: 0,
    failed: 0,
    credits: 0,
    rows: plan.rows,
    columns: plan.columns,
    cells: plan.cells.map((c) => ({ ...c, jobLocalId: null, jobState: null, error: null, outputs: [] })),
  });
}

let budget: ExperimentPlanInfo['budget'] = { ok: true };

beforeEach(() => {
  budget = { ok: true };
  core.handle('experiments:plan', (input) => ok(planOf(input, budget)));
  core.handle('experiments:start', (input) => started(input));
  core.calls.length = 0;
  dialog.openWith('image', BODY);
});

describe('Try across models', () => {
  it('opens on the form’s request: one Models axis with its model ticked, named after the prompt', () => {
    expect(dialog.open).toBe(true);
    expect(dialog.axes).toHaveLength(1);
    expect(dialog.axisChoices[0]?.label).toBe('Models');
    expect(dialog.axes[0]?.picked).toEqual(['imagea']);
    expect(dialog.name).toBe('a red kite over dunes');
    expect(dialog.sendBlockedBy).toBe('Working out the jobs and their cost…');
  });

  it('plans exactly the axes shown, and sends nothing before start', async () => {
    dialog.toggle(0, 'imagec-2', true);
    dialog.toggle(0, 'imageb', true);
    dialog.addAxis();
    expect(dialog.axisChoices[1]?.label).toBe('Aspect ratio');
    dialog.toggle(1, '16:9', true);
    await dialog.refreshPlan();
    expect(core.argsOf('experiments:plan')).toEqual([
      {
        base: { kind: 'image', body: BODY },
        axes: [
          // In the offered order (families A, B, C), whatever order they were ticked in.
          { kind: 'model', values: ['imagea', 'imageb', 'imagec-2'] },
          { kind: 'aspectRatio', values: ['1:1', '16:9'] },
        ],
      },
    ]);
    expect(dialog.planIsCurrent).toBe(true);
    expect(dialog.sendBlockedBy).toBeNull();
    expect(core.argsOf('experiments:start')).toEqual([]);

    await dialog.start();
    expect(core.argsOf('experiments:start')).toHaveLength(1);
    expect(core.argsOf('experiments:start')[0]).toMatchObject({ name: 'a red kite over dunes' });
    expect(core.argsOf('experiments:start')[0]).not.toHaveProperty('overBudget');
    expect(dialog.open).toBe(false);
  });

  it('keeps the newest plan when an older answer arrives late', async () => {
    let release: () => void = () => {};
    core.handle('experiments:plan', async (input) => {
      if (input.axes[0]!.values.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return ok(planOf(input));
    });
    const first = dialog.refreshPlan();
    dialog.toggle(0, 'imageb', true);
    await dialog.refreshPlan();
    release();
    await first;
    expect(dialog.plan?.rows.map((r) => r.value)).toEqual(['imagea', 'imageb']);
    expect(dialog.planIsCurrent).toBe(true);
  });

  it('does not plan or send while an axis has a problem, and says it', async () => {
    dialog.toggle(0, 'imagea', false);
    expect(dialog.inputProblem).toBe('Choose at least one model.');
    await dialog.refreshPlan();
    await dialog.start();
    expect(core.calls.filter((c) => c.channel.startsWith('experiments:'))).toEqual([]);
    expect(dialog.sendBlockedBy).toBe('Choose at least one model.');
  });

  it('over a cap: says why, sends only with “Send anyway” ticked, and then with overBudget', async () => {
    budget = { ok: false, reason: 'This needs about 2 credits; 2 of your 3 daily credits are used.' };
    await dialog.refreshPlan();
    expect(dialog.overBudgetReason).toBe(budget.reason);
    expect(dialog.sendBlockedBy).toBe('Over your cap: tick “Send anyway (over my cap)” to send.');
    await dialog.start();
    expect(core.argsOf('experiments:start')).toEqual([]);

    dialog.overBudgetOk = true;
    await dialog.start();
    expect(core.argsOf('experiments:start')).toEqual([expect.objectContaining({ overBudget: true })]);
  });

  it('a refusal at start (the room taken meanwhile) is said, and the override asked for again', async () => {
    core.handle('experiments:start', () => ({
      ok: false,
      error: { code: 'over_budget', message: 'This needs about 2 credits; 3 of your 3 daily credits are used.' },
    }));
    await dialog.refreshPlan();
    await dialog.start();
    await settle();
    expect(dialog.open).toBe(true);
    expect(dialog.overBudgetReason).toBe('This needs about 2 credits; 3 of your 3 daily credits are used.');
    expect(dialog.sendBlockedBy).toBe('Over your cap: tick “Send anyway (over my cap)” to send.');
    dialog.overBudgetOk = true;
    core.handle('experiments:start', started);
    await dialog.start();
    expect(core.argsOf('experiments:start').at(-1)).toMatchObject({ overBudget: true });
    expect(dialog.open).toBe(false);
  });
});
