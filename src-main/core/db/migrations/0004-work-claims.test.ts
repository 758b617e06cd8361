// Migration 4 adds the workers table and a claim column to the three tables of background work;
// rows written by schema 3 read as unclaimed, so any process may pick them up.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { migration0001 } from './0001-initial.ts';
import { migration0002 } from './0002-download-details.ts';
import { migration0003 } from './0003-job-engine.ts';
import { migration0004 } from './0004-work-claims.ts';

describe('migration 0004 work-claims', () => {
  it('adds workers and claimed_by; earlier rows are unclaimed', () => {
    const db = openDatabase(':memory:', { migrations: [migration0001, migration0002, migration0003] });
    db.prepare(
      "INSERT INTO assets (kind, id, origin, created_at, local_created_at) VALUES ('image', 'img_1', 'generated', 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO downloads (asset_seq, dest, state, created_at, updated_at) VALUES (1, 'images/img_1.jpg', 'queued', 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO uploads (model_id, type, source_path, file_name, state, created_at, updated_at) VALUES ('m', 'modelInput', '/x', 'x.jpg', 'queued', 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO jobs (kind, request, state, created_at, updated_at) VALUES ('image', '{}', 'submitting', 1, 1)",
    ).run();
    expect(runMigrations(db, [migration0001, migration0002, migration0003, migration0004])).toEqual([4]);
    for (const table of ['downloads', 'uploads', 'jobs']) {
      expect(db.prepare(`SELECT claimed_by FROM ${table}`).pluck().get()).toBeNull();
    }
    db.prepare("INSERT INTO workers (token, pid, host, beat_at) VALUES ('w1', 42, 'here', 1)").run();
    expect(() =>
      db.prepare("INSERT INTO workers (token, pid, host, beat_at) VALUES ('w1', 43, 'here', 2)").run(),
    ).toThrow(/UNIQUE/);
    expect(() =>
      db.prepare("INSERT INTO workers (token, pid, host, beat_at) VALUES ('w2', 'x', 'here', 2)").run(),
    ).toThrow(/cannot store TEXT value in INTEGER column/);
    db.close();
  });
});
