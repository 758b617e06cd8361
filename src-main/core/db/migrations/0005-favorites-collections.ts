// Schema 5: organising the library locally. Favourites are a local flag (the service's `liked`
// has no endpoint to set it, and sync must never overwrite the user's choice), counted in
// asset_counts like every other filter. Collections hold assets by hand (collection_items) or
// are saved searches (a filter stored as JSON). Upload file names get an index so the library
// can name training photos by their file. The full-text index is untouched.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

const FAVORITES = `
ALTER TABLE assets ADD COLUMN favorite INTEGER NOT NULL DEFAULT 0 CHECK (favorite IN (0, 1));
CREATE INDEX assets_favorite_by_time ON assets (created_at, seq, kind, origin, file_state, model_id)
  WHERE favorite = 1;`;

// asset_counts gains a favourite dimension: dropped and rebuilt from the assets it counts.
const COUNTS = `
DROP TRIGGER asset_counts_after_insert;
DROP TRIGGER asset_counts_after_delete;
DROP TRIGGER asset_counts_after_update;
DROP TABLE asset_counts;

CREATE TABLE asset_counts (
  origin    TEXT NOT NULL,
  kind      TEXT NOT NULL,
  model_id  TEXT NOT NULL,
  offline   INTEGER NOT NULL,
  liked     INTEGER NOT NULL,
  favorite  INTEGER NOT NULL,
  n         INTEGER NOT NULL,
  PRIMARY KEY (origin, kind, model_id, offline, liked, favorite)
) STRICT, WITHOUT ROWID;

INSERT INTO asset_counts (origin, kind, model_id, offline, liked, favorite, n)
SELECT origin, kind, coalesce(model_id, ''), file_state = 'downloaded', liked, favorite, count(*)
FROM assets GROUP BY 1, 2, 3, 4, 5, 6;

CREATE TRIGGER asset_counts_after_insert AFTER INSERT ON assets BEGIN
  INSERT INTO asset_counts (origin, kind, model_id, offline, liked, favorite, n)
  VALUES (new.origin, new.kind, coalesce(new.model_id, ''), new.file_state = 'downloaded', new.liked, new.favorite, 1)
  ON CONFLICT DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER asset_counts_after_delete AFTER DELETE ON assets BEGIN
  UPDATE asset_counts SET n = n - 1
  WHERE origin = old.origin AND kind = old.kind AND model_id = coalesce(old.model_id, '')
    AND offline = (old.file_state = 'downloaded') AND liked = old.liked AND favorite = old.favorite;
END;

CREATE TRIGGER asset_counts_after_update AFTER UPDATE OF origin, kind, model_id, file_state, liked, favorite ON assets
WHEN old.origin IS NOT new.origin OR old.kind IS NOT new.kind OR old.model_id IS NOT new.model_id
  OR (old.file_state = 'downloaded') IS NOT (new.file_state = 'downloaded') OR old.liked IS NOT new.liked
  OR old.favorite IS NOT new.favorite
BEGIN
  UPDATE asset_counts SET n = n - 1
  WHERE origin = old.origin AND kind = old.kind AND model_id = coalesce(old.model_id, '')
    AND offline = (old.file_state = 'downloaded') AND liked = old.liked AND favorite = old.favorite;
  INSERT INTO asset_counts (origin, kind, model_id, offline, liked, favorite, n)
  VALUES (new.origin, new.kind, coalesce(new.model_id, ''), new.file_state = 'downloaded', new.liked, new.favorite, 1)
  ON CONFLICT DO UPDATE SET n = n + 1;
END;`;

// A collection with a NULL search holds what was put in it; one with a search (the library's
// filter as JSON) is a smart collection and holds no items of its own.
const COLLECTIONS = `
CREATE TABLE collections (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(trim(name)) BETWEEN 1 AND 80),
  search      TEXT CHECK (search IS NULL OR json_valid(search)),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE collection_items (
  collection_id  INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  asset_seq      INTEGER NOT NULL REFERENCES assets (seq) ON DELETE CASCADE,
  added_at       INTEGER NOT NULL,
  PRIMARY KEY (collection_id, asset_seq)
) STRICT, WITHOUT ROWID;

CREATE INDEX collection_items_by_asset ON collection_items (asset_seq);

-- Smart collections never hold items: refused here, whatever the caller.
CREATE TRIGGER collection_items_manual_only BEFORE INSERT ON collection_items
WHEN (SELECT search FROM collections WHERE id = new.collection_id) IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'a smart collection holds no items');
END;

CREATE INDEX uploads_by_image ON uploads (image_id) WHERE image_id IS NOT NULL;`;

export const migration0005: Migration = {
  version: 5,
  name: 'favorites-collections',
  up(db: BetterSqlite3.Database) {
    db.exec(FAVORITES);
    db.exec(COUNTS);
    db.exec(COLLECTIONS);
  },
};
