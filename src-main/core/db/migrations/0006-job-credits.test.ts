// Migration 6 adds what a job cost; rows written by schema 5 read as "not known".
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { migration0001 } from './0001-initial.ts';
import { migration0002 } from './0002-download-details.ts';
import { migration0003 } from './0003-job-engine.ts';
import { migration0004 } from './0004-work-claims.ts';
import { migration0005 } from './0005-favorites-collections.ts';
import { migration0006 } from './0006-job-credits.ts';

describe('migration 0006 job-credits', () => {
  it('adds credits to jobs; earlier rows have none', () => {
    const earlier = [migration0001, migration0002, migration0003, migration0004, migration0005];
    const db = openDatabase(':memory:', { migrations: earlier });
    db.prepare(
      "INSERT INTO jobs (kind, request, state, created_at, updated_at) VALUES ('image', '{}', 'succeeded', 1, 1)",
    ).run();
    expect(runMigrations(db, [...earlier, migration0006])).toEqual([6]);
    expect(db.prepare('SELECT credits FROM jobs').pluck().get()).toBeNull();
    db.prepare('UPDATE jobs SET credits = 2.5').run();
    expect(db.prepare('SELECT credits FROM jobs').pluck().get()).toBe(2.5);
    expect(() => db.prepare("UPDATE jobs SET credits = 'a lot'").run()).toThrow(/cannot store TEXT value in REAL/);
    db.close();
  });
});
