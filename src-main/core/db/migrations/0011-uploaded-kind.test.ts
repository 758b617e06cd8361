// Migration 11 puts the kind into the uploaded assets' index: the models' upload counts read the
// index only, even with planner statistics like a million-asset library's.
import { describe, expect, it, vi } from 'vitest';
import { createAccountDb } from '../account-db.ts';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0011 } from './0011-uploaded-kind.ts';

describe('migration 0011 uploaded-kind', () => {
  it('counts each model’s uploads from the index alone, and counts the same', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 11);
    const db = openDatabase(':memory:', { migrations: earlier });
    const insert = db.prepare(
      'INSERT INTO assets (kind, id, origin, model_id, type, created_at, local_created_at) VALUES (?, ?, ?, ?, ?, 1, 1)',
    );
    for (let i = 0; i < 300; i += 1) insert.run(i % 2 ? 'image' : 'video', `g${i}`, 'generated', 'm1', 'output');
    for (let i = 0; i < 12; i += 1) insert.run('image', `u${i}`, 'uploaded', 'm1', 'modelInput');
    for (let i = 0; i < 3; i += 1) insert.run('image', `r${i}`, 'uploaded', 'm2', 'auxiliaryType');
    insert.run('video', 'uv', 'uploaded', 'm2', 'auxiliaryType');
    // The statistics a million-asset library had: its (kind, id) index looked selective on kind.
    db.exec('ANALYZE');
    db.prepare('UPDATE sqlite_stat1 SET stat = ? WHERE idx = ?').run('1000000 2001 1', 'sqlite_autoindex_assets_1');
    db.exec('ANALYZE sqlite_schema');

    expect(runMigrations(db, [...earlier, migration0011])).toEqual([11]);
    const prepare = vi.spyOn(db, 'prepare');
    const cache = createAccountDb(db, ':memory:');
    try {
      expect(Object.fromEntries(cache.models.uploadedCounts())).toEqual({
        m1: { modelInput: 12, auxiliaryType: 0 },
        m2: { modelInput: 0, auxiliaryType: 3 },
      });
      const query = String(prepare.mock.calls.at(-1)?.[0]);
      prepare.mockRestore();
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[];
      expect(plan.map((step) => step.detail)).toEqual([expect.stringContaining('COVERING INDEX assets_uploaded')]);
    } finally {
      cache.close();
    }
  });
});
