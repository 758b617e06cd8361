// Schema 4: several processes share one data folder (the app, the CLI, a second CLI). Each one
// that runs background work registers as a worker with a heartbeat, and claims the download,
// upload or job submission it works on, so two processes never write one file or send one
// upload twice, and work left by a process that died is taken over (core/db/work-claims.ts).
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0004: Migration = {
  version: 4,
  name: 'work-claims',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      CREATE TABLE workers (
        token    TEXT NOT NULL PRIMARY KEY,
        pid      INTEGER NOT NULL,
        host     TEXT NOT NULL,
        beat_at  INTEGER NOT NULL
      ) STRICT;
      ALTER TABLE downloads ADD COLUMN claimed_by TEXT;
      ALTER TABLE uploads ADD COLUMN claimed_by TEXT;
      ALTER TABLE jobs ADD COLUMN claimed_by TEXT;
    `);
  },
};
