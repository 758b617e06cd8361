// Schema 19: experiments (issue 33). An experiment is one base request crossed with one or two
// axes; it is sent as a batch (schema 17), so each cell is the batch item at the same position.
// Kept here: its axes and the grid's labels, and per cell the request as planned (body), what the
// mapping changed (notes), why it was refused (refused: never sent) and its estimate — so the
// matrix is rebuilt from the database offline. A batch the user chose to send over a credit cap
// (`over_budget`) is not stopped at the cap by the batch runner. A job sent again ("Try again") is
// found from the one it replaced (`jobs_by_resubmitted`): a cell shows its latest attempt.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0019: Migration = {
  version: 19,
  name: 'experiments',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      CREATE INDEX jobs_by_resubmitted ON jobs (resubmitted_as) WHERE resubmitted_as IS NOT NULL;
      ALTER TABLE batches ADD COLUMN over_budget INTEGER NOT NULL DEFAULT 0 CHECK (over_budget IN (0, 1));
      CREATE TABLE experiments (
        id         INTEGER PRIMARY KEY,
        batch_id   INTEGER NOT NULL UNIQUE REFERENCES batches (id) ON DELETE CASCADE,
        name       TEXT    NOT NULL,
        kind       TEXT    NOT NULL CHECK (kind IN ('image', 'video')),
        axes       TEXT    NOT NULL CHECK (json_valid(axes)),
        rows       TEXT    NOT NULL CHECK (json_valid(rows)),
        columns    TEXT    NOT NULL CHECK (json_valid(columns)),
        created_at INTEGER NOT NULL
      );
      CREATE TABLE experiment_cells (
        experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
        position      INTEGER NOT NULL,
        row           INTEGER NOT NULL,
        "column"      INTEGER NOT NULL,
        body          TEXT    NOT NULL CHECK (json_valid(body)),
        notes         TEXT    NOT NULL CHECK (json_valid(notes)),
        refused       TEXT,
        estimate      TEXT    NOT NULL CHECK (json_valid(estimate)),
        PRIMARY KEY (experiment_id, position)
      ) WITHOUT ROWID;`);
  },
};
