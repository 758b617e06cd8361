// Migration 17: batches and their items, each item tied to the jobs row it became in the same
// transaction that created that row, and only once.
import { describe, expect, it } from 'vitest';
import { createAccountDb } from '../account-db.ts';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0017 } from './0017-batches.ts';

const item = (row: number, state: 'pending' | 'refused') => ({
  row,
  expansion: null,
  of: 1,
  kind: 'image' as const,
  request: { modelID: 'imagea', prompt: `p${row}` },
  state,
  problem: state === 'refused' ? 'numImages must be …' : null,
  estimate: 2,
});

describe('migration 0017 batches', () => {
  it('adds the tables to a database of the version before, keeping its jobs', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 17);
    const db = openDatabase(':memory:', { migrations: earlier });
    db.prepare(
      `INSERT INTO jobs (kind, model_id, request, state, created_at, updated_at) VALUES ('image', 'imagea', '{}', 'queued', 1, 1)`,
    ).run();
    expect(runMigrations(db, [...earlier, migration0017])).toEqual([17]);
    expect(db.prepare(`SELECT count(*) AS n FROM jobs WHERE state = 'queued'`).get()).toEqual({ n: 1 });
    // The repositories read the current schema: bring it up to date (later migrations) before using them.
    runMigrations(db, MIGRATIONS);
    const cache = createAccountDb(db, ':memory:');
    try {
      expect(cache.jobs.listInStates(['queued'])).toHaveLength(1);
      const batch = cache.batches.create('list.txt', [item(1, 'pending'), item(2, 'refused'), item(3, 'pending')], 5);
      expect(batch).toMatchObject({ name: 'list.txt', state: 'running' });
      expect(cache.batches.counts(batch.id)).toEqual({ pending: 2, sent: 0, refused: 1, cancelled: 0, paused: 0 });
      expect(() =>
        db.prepare(`UPDATE batch_items SET state = 'lost' WHERE batch_id = ? AND position = 0`).run(batch.id),
      ).toThrow(/CHECK/);
    } finally {
      cache.close();
    }
  });

  it('marks an item sent in the transaction that inserts its job, and only a pending one', () => {
    const cache = createAccountDb(openDatabase(':memory:'), ':memory:');
    try {
      const batch = cache.batches.create('b', [item(1, 'pending')], 1);
      // A failure after the jobs row was written rolls both back: the item is still pending.
      expect(() =>
        cache.jobs.transaction(() => {
          const job = cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: {}, now: 2 });
          cache.batches.markSent(batch.id, 0, job.local_id);
          throw new Error('crash');
        }),
      ).toThrow('crash');
      expect(cache.batches.nextPending(batch.id)?.position).toBe(0);
      expect(cache.jobs.listInStates(['submitting'])).toHaveLength(0);
      const sent = cache.jobs.transaction(() => {
        const job = cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: {}, now: 3 });
        return cache.batches.markSent(batch.id, 0, job.local_id);
      });
      expect(sent).toBe(true);
      expect(cache.batches.markSent(batch.id, 0, 999)).toBe(false);
      expect(cache.batches.items(batch.id)[0]).toMatchObject({ state: 'sent', job_state: 'submitting' });
      expect(cache.batches.unanswered(batch.id)).toHaveLength(1);
    } finally {
      cache.close();
    }
  });
});
