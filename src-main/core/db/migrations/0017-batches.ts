// Schema 17: batches (issue 33). A batch is many requests planned at once (a prompt list or a CSV,
// wildcards expanded); each item is one planned job: waiting (pending, or paused with its batch),
// handed to the outbox (sent: `job_local_id` is the jobs row it became, written in the same
// transaction that created that row, so a restart never sends an item twice), refused (the rules or
// the service refused it; never sent) or cancelled (the rest of a cancelled batch).
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0017: Migration = {
  version: 17,
  name: 'batches',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      CREATE TABLE batches (
        id            INTEGER PRIMARY KEY,
        name          TEXT    NOT NULL,
        state         TEXT    NOT NULL CHECK (state IN ('running', 'paused', 'cancelled', 'done')),
        paused_reason TEXT,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
      CREATE TABLE batch_items (
        batch_id     INTEGER NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        position     INTEGER NOT NULL,
        row          INTEGER NOT NULL,
        expansion    INTEGER,
        of           INTEGER NOT NULL,
        kind         TEXT    NOT NULL CHECK (kind IN ('image', 'video')),
        request      TEXT    NOT NULL,
        state        TEXT    NOT NULL CHECK (state IN ('pending', 'sent', 'refused', 'cancelled', 'paused')),
        problem      TEXT,
        estimate     REAL,
        job_local_id INTEGER REFERENCES jobs (local_id) ON DELETE SET NULL,
        PRIMARY KEY (batch_id, position)
      ) WITHOUT ROWID;
      CREATE INDEX batch_items_by_state ON batch_items (batch_id, state, position);
      CREATE INDEX batch_items_by_job ON batch_items (job_local_id) WHERE job_local_id IS NOT NULL;`);
  },
};
