// Migration 12: a jobs row gains its latest POST time, send count, waiting resend and the
// unattributed-job fields; rows written before keep their data and read as "not unattributed".
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0012 } from './0012-job-attribution.ts';

describe('migration 0012 job-attribution', () => {
  it('keeps existing jobs and gives them the defaults', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 12);
    const db = openDatabase(':memory:', { migrations: earlier });
    db.prepare(
      `INSERT INTO jobs (kind, model_id, request, state, created_at, updated_at) VALUES ('image', 'imagea', '{}', 'submitting', 5, 5)`,
    ).run();
    expect(runMigrations(db, [...earlier, migration0012])).toEqual([12]);
    expect(
      db.prepare('SELECT sent_at, sends, resend_at, resend_cancelled, unattributed, candidate_rows FROM jobs').get(),
    ).toEqual({ sent_at: null, sends: 0, resend_at: null, resend_cancelled: 0, unattributed: 0, candidate_rows: null });
    expect(() => db.prepare(`UPDATE jobs SET candidate_rows = 'not json'`).run()).toThrow();
    db.close();
  });
});
