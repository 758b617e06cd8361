// Schema 13: an index for each preset's newest image with a thumbnail, the preset picker's preview
// (the service gives presets no picture). Without it every preset would read the whole assets table.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0013: Migration = {
  version: 13,
  name: 'preset-samples',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      CREATE INDEX assets_preset_samples ON assets (preset, created_at)
        WHERE preset IS NOT NULL AND kind = 'image' AND thumb_path IS NOT NULL;
      ANALYZE assets_preset_samples;`);
  },
};
