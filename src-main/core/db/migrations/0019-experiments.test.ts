// Migration 19: experiments and their cells, saved in one transaction with their batch and its
// items (both or neither), read back joined to the items and jobs; older batches keep going.
import { describe, expect, it } from 'vitest';
import { createAccountDb, type AccountDb } from '../account-db.ts';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import type { NewExperiment } from '../repos/experiments-repo.ts';
import { migration0019 } from './0019-experiments.ts';
import { MIGRATIONS } from './index.ts';

const estimate = { credits: 2, basedOn: 1, low: 2, high: 2 };
const experiment = (overBudget = false): NewExperiment => ({
  name: 'heron across models',
  kind: 'image',
  axes: [{ kind: 'model', key: null, label: 'Model' }],
  rows: [
    { value: 'imagea', label: 'Image A' },
    { value: 'imageb', label: 'Image B' },
  ],
  columns: [{ value: '', label: '' }],
  cells: [
    { row: 0, column: 0, body: { modelID: 'imagea', prompt: 'heron' }, notes: [], refused: null, estimate },
    { row: 1, column: 0, body: { modelID: 'imageb', prompt: '' }, notes: [], refused: 'prompt must be …', estimate },
  ],
  overBudget,
});

const count = (cache: AccountDb, table: string): number =>
  (cache.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('migration 0019 experiments', () => {
  it('adds the tables to a database of the version before; its batches are not over budget', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 19);
    const db = openDatabase(':memory:', { migrations: earlier });
    db.prepare(`INSERT INTO batches (name, state, created_at, updated_at) VALUES ('old', 'running', 1, 1)`).run();
    expect(runMigrations(db, [...earlier, migration0019])).toEqual([19]);
    const cache = createAccountDb(db, ':memory:');
    try {
      expect(cache.batches.inState('running')).toMatchObject([{ name: 'old', over_budget: 0 }]);
      const made = cache.experiments.create(experiment(), cache.batches, 5);
      expect(cache.batches.get(made.batch_id)).toMatchObject({ state: 'running', over_budget: 0 });
      expect(() => db.prepare(`UPDATE experiments SET kind = 'upscale'`).run()).toThrow(/CHECK/);
      expect(() => db.prepare(`UPDATE experiment_cells SET notes = 'not json'`).run()).toThrow(/CHECK/);
    } finally {
      cache.close();
    }
  });

  it('saves an experiment with its batch and items at once: cell N is item N, refused cells never pending', () => {
    const cache = createAccountDb(openDatabase(':memory:'), ':memory:');
    try {
      const made = cache.experiments.create(experiment(true), cache.batches, 7);
      expect(made).toMatchObject({ name: 'heron across models', kind: 'image', created_at: 7 });
      expect(cache.batches.get(made.batch_id)).toMatchObject({ over_budget: 1 });
      expect(cache.batches.counts(made.batch_id)).toMatchObject({ pending: 1, refused: 1 });
      const cells = cache.experiments.cells(made.id);
      expect(cells.map((c) => [c.position, c.row, c.column, c.item_state, c.refused, c.job_state])).toEqual([
        [0, 0, 0, 'pending', null, null],
        [1, 1, 0, 'refused', 'prompt must be …', null],
      ]);
      expect(JSON.parse(cells[0]!.body)).toEqual({ modelID: 'imagea', prompt: 'heron' });
      expect(cache.experiments.byBatch(made.batch_id)?.id).toBe(made.id);
      expect(cache.experiments.summary(made.id)).toEqual({ cells: 2, finished: 0, failed: 1, credits: 0 });
    } finally {
      cache.close();
    }
  });

  it('a crash while saving leaves neither the experiment nor its batch', () => {
    const cache = createAccountDb(openDatabase(':memory:'), ':memory:');
    try {
      const broken = experiment();
      // The second cell's body cannot be written as JSON: the insert fails after the batch was made.
      const cyclic: Record<string, unknown> = {};
      cyclic['self'] = cyclic;
      expect(() =>
        cache.experiments.create(
          { ...broken, cells: [broken.cells[0]!, { ...broken.cells[1]!, notes: [cyclic] }] },
          cache.batches,
          9,
        ),
      ).toThrow();
      expect([count(cache, 'batches'), count(cache, 'batch_items'), count(cache, 'experiments')]).toEqual([0, 0, 0]);
      expect(count(cache, 'experiment_cells')).toBe(0);
    } finally {
      cache.close();
    }
  });

  it('a cell shows the job sent again in place of its failed one; that job is found to be its batch’s', () => {
    const cache = createAccountDb(openDatabase(':memory:'), ':memory:');
    try {
      const made = cache.experiments.create(experiment(), cache.batches, 1);
      const first = cache.jobs.transaction(() => {
        const job = cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: {}, now: 2 });
        cache.batches.markSent(made.batch_id, 0, job.local_id);
        return job;
      });
      cache.jobs.update(first.local_id, { state: 'failed', error: 'The service failed it.', credits: 1 }, 3);
      expect(cache.experiments.summary(made.id)).toMatchObject({ finished: 0, failed: 2, credits: 1 });
      const again = cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: {}, now: 4 });
      cache.jobs.markResubmitted(first.local_id, again.local_id, 4);
      cache.jobs.update(again.local_id, { state: 'succeeded', credits: 2 }, 5);
      expect(cache.experiments.cells(made.id)[0]).toMatchObject({
        job_local_id: again.local_id,
        job_state: 'succeeded',
      });
      expect(cache.experiments.summary(made.id)).toEqual({ cells: 2, finished: 1, failed: 1, credits: 3 });
      expect(cache.batches.batchOfJob(again.local_id)).toBe(made.batch_id);
      const stranger = cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: {}, now: 6 });
      expect(cache.batches.batchOfJob(stranger.local_id)).toBeNull();
    } finally {
      cache.close();
    }
  });

  it('forgetting an experiment keeps its batch and jobs', () => {
    const cache = createAccountDb(openDatabase(':memory:'), ':memory:');
    try {
      const made = cache.experiments.create(experiment(), cache.batches, 1);
      cache.jobs.transaction(() => {
        const job = cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: {}, now: 2 });
        cache.batches.markSent(made.batch_id, 0, job.local_id);
      });
      expect(cache.experiments.cells(made.id)[0]).toMatchObject({ item_state: 'sent', job_state: 'submitting' });
      expect(cache.experiments.delete(made.id)).toBe(true);
      expect(cache.experiments.get(made.id)).toBeUndefined();
      expect(count(cache, 'experiment_cells')).toBe(0);
      expect(cache.batches.get(made.batch_id)).toBeDefined();
      expect(count(cache, 'jobs')).toBe(1);
      expect(cache.experiments.delete(made.id)).toBe(false);
    } finally {
      cache.close();
    }
  });
});
