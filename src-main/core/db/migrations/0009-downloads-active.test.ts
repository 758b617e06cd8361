// Migration 9 adds the active downloads' index: the rows already active are in it, the others not.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0009 } from './0009-downloads-active.ts';

describe('migration 0009 downloads-active', () => {
  it('indexes the queued, preparing and downloading rows of an existing table, and no others', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 9);
    const db = openDatabase(':memory:', { migrations: earlier });
    const insertAsset = db.prepare(
      "INSERT INTO assets (kind, id, origin, created_at, local_created_at) VALUES ('image', ?, 'generated', 1, 1)",
    );
    const states = ['queued', 'preparing', 'downloading', 'paused', 'succeeded', 'failed'];
    for (const state of states) {
      const seq = Number(insertAsset.run(state).lastInsertRowid);
      db.prepare(
        "INSERT INTO downloads (asset_seq, dest, state, mode, created_at, updated_at) VALUES (?, 'd', ?, 'file', 1, 1)",
      ).run(seq, state);
    }
    expect(runMigrations(db, [...earlier, migration0009])).toEqual([9]);
    const indexed = db
      .prepare(
        "SELECT state FROM downloads INDEXED BY downloads_active WHERE state IN ('queued', 'preparing', 'downloading') ORDER BY id",
      )
      .pluck()
      .all();
    expect(indexed).toEqual(['queued', 'preparing', 'downloading']);
    expect(
      db.prepare("SELECT partial FROM pragma_index_list('downloads') WHERE name = 'downloads_active'").pluck().get(),
    ).toBe(1);
    db.close();
  });
});
