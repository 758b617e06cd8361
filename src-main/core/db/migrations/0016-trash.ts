// Schema 16: the Atelier trash (issue 32). Removing a local copy moves its file into the library's
// `.trash` folder instead of deleting it; each trashed copy is one row here, written BEFORE the
// file moves (core/library/folder/trash.ts), so a crash leaves either a row whose file is missing
// (dropped at the next start) or a file without a row (removed then). One row per asset: trashing
// an asset's copy again replaces the earlier one. When the asset leaves the library (deleted on the
// service with no local copy), its row goes with it and the start-up check removes the file.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0016: Migration = {
  version: 16,
  name: 'trash',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      CREATE TABLE trash (
        asset_seq     INTEGER PRIMARY KEY REFERENCES assets(seq) ON DELETE CASCADE,
        original_path TEXT NOT NULL,          -- the asset's local_path (library-relative) before
        trash_path    TEXT NOT NULL UNIQUE,   -- where it lies now (library-relative, under .trash/)
        bytes         INTEGER NOT NULL CHECK (bytes >= 0),
        sha256        TEXT,
        trashed_at    INTEGER NOT NULL        -- epoch ms: kept 30 days from here
      ) STRICT;
      CREATE INDEX trash_by_age ON trash (trashed_at);`);
  },
};
