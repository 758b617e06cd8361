// Schema 11: the uploaded assets' index also holds their kind. Counting each model's training inputs
// and references (models:list, the training screen, the upload queue) asks for uploaded images: the
// index without the kind made SQLite read each uploaded row from the table, ~26 ms with 7,500 uploads
// in a million-asset library, a wait for every models:list, sent by the Library's first screen
// beside its first page. With the kind in the index the count reads the index only (~1 ms). The new
// index is analysed at once: the statistics of the old one are gone with it, and without any the
// planner chose the table's (kind, id) index and read every image (~370 ms).
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0011: Migration = {
  version: 11,
  name: 'uploaded-kind',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      DROP INDEX assets_uploaded;
      CREATE INDEX assets_uploaded ON assets (model_id, type, kind) WHERE origin = 'uploaded';
      ANALYZE assets_uploaded;`);
  },
};
