// Schema 2: what the download manager needs to resume and explain itself across restarts: how the
// asset is fetched (file, prepared MP4, HLS copy), the Content-Type seen, and an error code.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0002: Migration = {
  version: 2,
  name: 'download-details',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      ALTER TABLE downloads ADD COLUMN mode TEXT NOT NULL DEFAULT 'file' CHECK (mode IN ('file', 'mp4', 'hls'));
      ALTER TABLE downloads ADD COLUMN content_type TEXT;
      ALTER TABLE downloads ADD COLUMN error_code TEXT;
    `);
  },
};
