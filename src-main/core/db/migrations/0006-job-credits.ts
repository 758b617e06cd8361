// Schema 6: what a finished job cost, as the service's job list (GET /jobs) reports it, so Create can
// estimate the cost of the next one from the account's own history before anything is sent.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0006: Migration = {
  version: 6,
  name: 'job-credits',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN credits REAL;
      CREATE INDEX jobs_cost ON jobs (model_id, finished_at) WHERE credits IS NOT NULL AND state = 'succeeded';
    `);
  },
};
