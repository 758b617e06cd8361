// Schema 3: what the background engine needs beyond the outbox of schema 1: the service's own
// creation time of a job (the batch poll's date range), which job replaced a failed or unknown
// one, the training watcher's wall-clock schedule, and what an upload check found.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0003: Migration = {
  version: 3,
  name: 'job-engine',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN service_created_at INTEGER;
      ALTER TABLE jobs ADD COLUMN resubmitted_as INTEGER;
      ALTER TABLE models ADD COLUMN train_next_check_at INTEGER;
      ALTER TABLE models ADD COLUMN train_error TEXT;
      ALTER TABLE models ADD COLUMN train_notified_at INTEGER;
      ALTER TABLE uploads ADD COLUMN width INTEGER;
      ALTER TABLE uploads ADD COLUMN height INTEGER;
      ALTER TABLE uploads ADD COLUMN warning TEXT;
      CREATE INDEX jobs_submitting ON jobs (created_at) WHERE state = 'submitting';
      CREATE INDEX models_training ON models (train_next_check_at) WHERE train_state IN ('training', 'slow');
    `);
  },
};
