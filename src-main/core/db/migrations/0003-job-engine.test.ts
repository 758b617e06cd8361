// Migration 3 adds the engine's columns; rows written by schema 2 keep working.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { migration0001 } from './0001-initial.ts';
import { migration0002 } from './0002-download-details.ts';
import { migration0003 } from './0003-job-engine.ts';

describe('migration 0003 job-engine', () => {
  it('adds the engine columns with NULL defaults to existing rows', () => {
    const db = openDatabase(':memory:', { migrations: [migration0001, migration0002] });
    db.prepare(
      `INSERT INTO jobs (kind, request, state, created_at, updated_at) VALUES ('image', '{}', 'queued', 1, 1)`,
    ).run();
    db.prepare(`INSERT INTO models (id, local_created_at, train_state) VALUES ('m1', 1, 'training')`).run();
    db.prepare(
      `INSERT INTO uploads (model_id, type, source_path, file_name, state, created_at, updated_at)
       VALUES ('m1', 'modelInput', '/tmp/a.png', 'a.png', 'queued', 1, 1)`,
    ).run();
    expect(runMigrations(db, [migration0001, migration0002, migration0003])).toEqual([3]);
    expect(db.prepare('SELECT service_created_at, resubmitted_as FROM jobs').get()).toEqual({
      service_created_at: null,
      resubmitted_as: null,
    });
    expect(db.prepare('SELECT train_next_check_at, train_error, train_notified_at FROM models').get()).toEqual({
      train_next_check_at: null,
      train_error: null,
      train_notified_at: null,
    });
    expect(db.prepare('SELECT width, height, warning FROM uploads').get()).toEqual({
      width: null,
      height: null,
      warning: null,
    });
    // STRICT still applies to the new columns.
    expect(() => db.prepare("UPDATE jobs SET service_created_at = 'soon'").run()).toThrow(/cannot store TEXT/);
    db.close();
  });
});
