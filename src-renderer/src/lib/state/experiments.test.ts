// The Experiments view's state against a fake core: the list and the open matrix are read from the
// core and kept live by its events (a row patched at once, a new experiment read in, the open matrix
// read again once for a burst of changes), pause/resume/cancel go to the experiment's batch, a delete
// forgets it, showExperiment opens it in its view, and another account starts from nothing and reads its own.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentDetailInfo, ExperimentInfo } from '@contract/ipc/experiments.ts';
import { fakeCore, installFakeCore, ok, settle } from '../test-support/fake-core.ts';
import { assetRecord } from '../test-support/records.ts';

const info = (overrides: Partial<ExperimentInfo> = {}): ExperimentInfo => ({
  id: 1,
  name: 'Lighthouse across models',
  createdAt: Date.UTC(2026, 10, 28, 3),
  state: 'running',
  pausedReason: null,
  batchId: 7,
  axes: [{ kind: 'model', key: null, label: 'Model' }],
  cellCount: 2,
  finished: 0,
  failed: 0,
  credits: 0,
  ...overrides,
});

const detail = (overrides: Partial<ExperimentDetailInfo> = {}): ExperimentDetailInfo => ({
  ...info(),
  rows: [
    { value: 'imagea', label: 'Image A' },
    { value: 'imageb', label: 'Image B' },
  ],
  columns: [{ value: '', label: '' }],
  cells: [0, 1].map((row) => ({
    row,
    column: 0,
    kind: 'image' as const,
    body: { modelID: row === 0 ? 'imagea' : 'imageb', prompt: 'a lighthouse' },
    estimate: { credits: null, basedOn: 0, low: null, high: null },
    notes: [],
    refused: null,
    jobLocalId: row + 1,
    jobState: 'queued' as const,
    error: null,
    outputs: [],
  })),
  ...overrides,
});

let list: ExperimentInfo[] = [];
let matrix = detail();
const core = fakeCore({
  'experiments:list': () => ok(list),
  'experiments:get': ({ id }) =>
    id === matrix.id ? ok(matrix) : { ok: false, error: { code: 'not_found', message: 'No such experiment.' } },
  'experiments:delete': ({ id }) => ok({ id }),
  'batches:pause': ({ id }) =>
    ok({
      id,
      name: '',
      state: 'paused',
      pausedReason: 'Paused by you',
      stoppedAtCap: false,
      createdAt: 0,
      items: { pending: 1, sent: 1, refused: 0, cancelled: 0, paused: 0 },
      jobs: {},
    }),
});
installFakeCore(core);
const historyCalls: string[] = [];
Object.assign(globalThis, {
  history: { replaceState: (_: unknown, __: string, hash: string) => historyCalls.push(hash) },
});
let experiments: typeof import('./experiments.svelte.ts').experiments;
let showExperiment: typeof import('./experiments.svelte.ts').showExperiment;
let router: typeof import('./router.svelte.ts').router;
let accountScope: typeof import('../account-scope.ts').accountScope;
let stop: () => void = () => {};

/** Longer than the 150 ms the state gathers a burst of events in before reading again. */
const pastCoalescing = () => new Promise<void>((resolve) => setTimeout(resolve, 300));

beforeAll(async () => {
  ({ experiments, showExperiment } = await import('./experiments.svelte.ts'));
  ({ router } = await import('./router.svelte.ts'));
  ({ accountScope } = await import('../account-scope.ts'));
  accountScope.enter('acct-1');
  await settle();
});

beforeEach(async () => {
  stop();
  list = [info(), info({ id: 2, name: 'Seeds', state: 'done', cellCount: 4, finished: 4 })];
  matrix = detail();
  experiments.close();
  await experiments.loadList();
  stop = experiments.listen();
});

describe('the experiments state', () => {
  it("reads the list and patches a row from the core's event at once", () => {
    expect(experiments.list.map((e) => e.name)).toEqual(['Lighthouse across models', 'Seeds']);
    core.emit('experiments:changed', info({ finished: 1 }));
    expect(experiments.list[0]?.finished).toBe(1);
    expect(experiments.list).toHaveLength(2);
  });

  it('reads the list again when an experiment it does not hold starts', async () => {
    list = [info({ id: 3, name: 'Aspect ratios' }), ...list];
    core.emit('experiments:changed', info({ id: 3, name: 'Aspect ratios' }));
    await pastCoalescing();
    expect(experiments.list.map((e) => e.id)).toEqual([3, 1, 2]);
  });

  it('opens a matrix and reads it again, once, for a burst of changes of its cells', async () => {
    experiments.open(1);
    await settle();
    expect(experiments.detail?.cells[0]?.jobState).toBe('queued');
    const reads = core.argsOf('experiments:get').length;
    matrix = detail({
      finished: 1,
      cells: detail().cells.map((cell, i) =>
        i === 0 ? { ...cell, jobState: 'succeeded', outputs: [assetRecord({ id: 'img_1' })] } : cell,
      ),
    });
    core.emit('experiments:changed', info({ finished: 1 }));
    core.emit('experiments:changed', info({ finished: 1 }));
    core.emit('assets:changed', { reason: 'job', kinds: ['image'] });
    await pastCoalescing();
    expect(core.argsOf('experiments:get').length).toBe(reads + 1);
    expect(experiments.detail?.cells[0]?.outputs.map((o) => o.id)).toEqual(['img_1']);
    // A change of another experiment leaves the open matrix alone.
    core.emit('experiments:changed', info({ id: 2, name: 'Seeds', state: 'done' }));
    await pastCoalescing();
    expect(core.argsOf('experiments:get').length).toBe(reads + 1);
  });

  it("pauses, resumes and cancels through the experiment's batch", async () => {
    experiments.open(1);
    await settle();
    await experiments.command('pause');
    expect(core.argsOf('batches:pause')).toEqual([{ id: 7 }]);
    expect(experiments.commanding).toBeNull();
  });

  it('says plainly when the experiment is gone, and forgets one on delete', async () => {
    experiments.open(9);
    await settle();
    expect(experiments.detailError).toBe('This experiment is no longer here: it was deleted.');
    experiments.open(1);
    await settle();
    expect(await experiments.remove(1)).toBe(true);
    expect(core.argsOf('experiments:delete')).toEqual([{ id: 1 }]);
    expect(experiments.list.map((e) => e.id)).toEqual([2]);
    expect(experiments.openId).toBeNull();
  });

  it('showExperiment goes to the Experiments view with that experiment open', async () => {
    showExperiment(1);
    expect(router.view).toBe('experiments');
    expect(historyCalls.at(-1)).toBe('#/experiments');
    await settle();
    expect(experiments.openId).toBe(1);
    expect(experiments.detail?.name).toBe('Lighthouse across models');
  });

  it('starts from nothing for another account and reads its list', async () => {
    experiments.open(1);
    await settle();
    list = [info({ id: 5, name: 'The other account' })];
    accountScope.enter('acct-2');
    expect(experiments.openId).toBeNull();
    expect(experiments.detail).toBeNull();
    await settle();
    expect(experiments.list.map((e) => e.name)).toEqual(['The other account']);
  });
});
