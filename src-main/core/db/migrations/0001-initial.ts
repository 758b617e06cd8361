// Schema 1: the account's cache (models, assets, presets, sync state), the full-text index, and the
// background engine's tables (job outbox, downloads, uploads).
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

const MODELS = `
CREATE TABLE models (
  id                  TEXT NOT NULL PRIMARY KEY,
  model_type          TEXT NOT NULL DEFAULT '',
  status              TEXT NOT NULL DEFAULT '',
  created_at          INTEGER,            -- server times as epoch ms; NULL when the server sent none
  updated_at          INTEGER,
  server_hash         TEXT,               -- digest of the last server record: sync writes only what changed
  local_created_at    INTEGER NOT NULL,   -- when this row entered the cache (guards sync deletions)
  label               TEXT,               -- the user's name for it; the API has no name field
  training_started_at INTEGER,
  last_checked_at     INTEGER,
  train_state         TEXT                -- engine-owned: NULL, 'training', 'slow', 'ready', 'failed', …
) STRICT;`;

const ASSETS = `
CREATE TABLE assets (
  seq                 INTEGER PRIMARY KEY,  -- local, stable: FTS rowid, keyset tie-break, FK target
  kind                TEXT NOT NULL CHECK (kind IN ('image', 'video')),
  id                  TEXT NOT NULL,        -- the service's id
  origin              TEXT NOT NULL CHECK (origin IN ('generated', 'uploaded')),
  model_id            TEXT,
  type                TEXT,
  url                 TEXT,
  upscaled_image_id   TEXT,
  upscaled_image_url  TEXT,
  folder_id           TEXT,
  public_media_id     TEXT,
  liked               INTEGER NOT NULL DEFAULT 0 CHECK (liked IN (0, 1)),
  data                TEXT CHECK (data IS NULL OR json_valid(data)),
  created_at          INTEGER NOT NULL,     -- epoch ms; the library's sort key
  updated_at          INTEGER,
  server_hash         TEXT,
  remote_state        TEXT NOT NULL DEFAULT 'present' CHECK (remote_state IN ('present', 'gone')),
  local_created_at    INTEGER NOT NULL,
  job_id              TEXT,                 -- the job that made it (service job id)
  source_asset_id     TEXT,                 -- lineage: the image an upscale was made from
  frames              TEXT CHECK (frames IS NULL OR json_valid(frames)),  -- reference frames of a video
  prompt              TEXT,
  params              TEXT CHECK (params IS NULL OR json_valid(params)),  -- the request that made it
  preset              TEXT,
  file_state          TEXT NOT NULL DEFAULT 'remote'
                        CHECK (file_state IN ('remote', 'queued', 'downloading', 'downloaded', 'failed')),
  local_path          TEXT,                 -- relative to the library root
  bytes               INTEGER,
  width               INTEGER,
  height              INTEGER,
  duration_ms         INTEGER,
  sha256              TEXT,
  thumb_path          TEXT,
  hls                 INTEGER NOT NULL DEFAULT 0 CHECK (hls IN (0, 1)),
  UNIQUE (kind, id)
) STRICT;

-- Library pages: each index yields rows in (created_at, seq) order and carries every filter column,
-- so a filtered page is decided inside the index; table rows are read only for the rows shown.
CREATE INDEX assets_by_time ON assets (created_at, seq, kind, origin, file_state, liked, model_id);
CREATE INDEX assets_by_kind_time ON assets (kind, created_at, seq, origin, file_state, liked, model_id);
CREATE INDEX assets_by_model_time ON assets (model_id, created_at, seq, kind, origin, file_state, liked);
CREATE INDEX assets_offline_by_time ON assets (created_at, seq, kind, origin, liked, model_id)
  WHERE file_state = 'downloaded';
CREATE INDEX assets_liked_by_time ON assets (created_at, seq, kind, origin, file_state, model_id) WHERE liked = 1;
CREATE INDEX assets_uploaded ON assets (model_id, type) WHERE origin = 'uploaded';
CREATE INDEX assets_by_job ON assets (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX assets_by_source ON assets (source_asset_id) WHERE source_asset_id IS NOT NULL;
CREATE INDEX assets_local_files ON assets (file_state) WHERE file_state <> 'remote';`;

// Contentless (the text lives in assets) with contentless_delete so rows can be dropped by rowid.
// params are indexed as their leaf values, not as JSON text, so keys do not pollute matches.
const ASSETS_FTS = `
CREATE VIRTUAL TABLE assets_fts USING fts5 (
  prompt, params, model, preset,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2'
);

-- Prompt words weigh most, then model and preset, then the other request values.
INSERT INTO assets_fts (assets_fts, rank) VALUES ('rank', 'bm25(4.0, 1.0, 2.0, 2.0)');

CREATE TRIGGER assets_fts_after_insert AFTER INSERT ON assets BEGIN
  INSERT INTO assets_fts (rowid, prompt, params, model, preset) VALUES (
    new.seq,
    coalesce(new.prompt, ''),
    coalesce((SELECT group_concat(value, ' ') FROM json_tree(coalesce(new.params, '{}'))
              WHERE atom IS NOT NULL AND key IS NOT 'prompt'), ''),
    coalesce(new.model_id, ''),
    coalesce(new.preset, ''));
END;

CREATE TRIGGER assets_fts_after_update AFTER UPDATE OF prompt, params, model_id, preset ON assets
WHEN old.prompt IS NOT new.prompt OR old.params IS NOT new.params
  OR old.model_id IS NOT new.model_id OR old.preset IS NOT new.preset
BEGIN
  DELETE FROM assets_fts WHERE rowid = old.seq;
  INSERT INTO assets_fts (rowid, prompt, params, model, preset) VALUES (
    new.seq,
    coalesce(new.prompt, ''),
    coalesce((SELECT group_concat(value, ' ') FROM json_tree(coalesce(new.params, '{}'))
              WHERE atom IS NOT NULL AND key IS NOT 'prompt'), ''),
    coalesce(new.model_id, ''),
    coalesce(new.preset, ''));
END;

CREATE TRIGGER assets_fts_after_delete AFTER DELETE ON assets BEGIN
  DELETE FROM assets_fts WHERE rowid = old.seq;
END;`;

// Filter-bar counts kept up to date by triggers: reading them costs a few dozen rows, not a scan
// of the library. model_id '' stands for "no model" (NULLs would defeat the primary key).
const ASSET_COUNTS = `
CREATE TABLE asset_counts (
  origin    TEXT NOT NULL,
  kind      TEXT NOT NULL,
  model_id  TEXT NOT NULL,
  offline   INTEGER NOT NULL,
  liked     INTEGER NOT NULL,
  n         INTEGER NOT NULL,
  PRIMARY KEY (origin, kind, model_id, offline, liked)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER asset_counts_after_insert AFTER INSERT ON assets BEGIN
  INSERT INTO asset_counts (origin, kind, model_id, offline, liked, n)
  VALUES (new.origin, new.kind, coalesce(new.model_id, ''), new.file_state = 'downloaded', new.liked, 1)
  ON CONFLICT DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER asset_counts_after_delete AFTER DELETE ON assets BEGIN
  UPDATE asset_counts SET n = n - 1
  WHERE origin = old.origin AND kind = old.kind AND model_id = coalesce(old.model_id, '')
    AND offline = (old.file_state = 'downloaded') AND liked = old.liked;
END;

CREATE TRIGGER asset_counts_after_update AFTER UPDATE OF origin, kind, model_id, file_state, liked ON assets
WHEN old.origin IS NOT new.origin OR old.kind IS NOT new.kind OR old.model_id IS NOT new.model_id
  OR (old.file_state = 'downloaded') IS NOT (new.file_state = 'downloaded') OR old.liked IS NOT new.liked
BEGIN
  UPDATE asset_counts SET n = n - 1
  WHERE origin = old.origin AND kind = old.kind AND model_id = coalesce(old.model_id, '')
    AND offline = (old.file_state = 'downloaded') AND liked = old.liked;
  INSERT INTO asset_counts (origin, kind, model_id, offline, liked, n)
  VALUES (new.origin, new.kind, coalesce(new.model_id, ''), new.file_state = 'downloaded', new.liked, 1)
  ON CONFLICT DO UPDATE SET n = n + 1;
END;`;

// The submission outbox: a row exists BEFORE the POST, so a crash mid-submit is never lost.
const JOBS = `
CREATE TABLE jobs (
  local_id        INTEGER PRIMARY KEY,
  job_id          TEXT UNIQUE,              -- NULL until the service answered the POST
  kind            TEXT NOT NULL CHECK (kind IN ('image', 'upscale', 'video', 'training')),
  model_id        TEXT,
  request         TEXT NOT NULL CHECK (json_valid(request)),
  state           TEXT NOT NULL
                    CHECK (state IN ('submitting', 'queued', 'running', 'succeeded', 'failed', 'unknown')),
  service_status  TEXT,                     -- the last raw status string from the service
  error           TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  submitted_at    INTEGER,
  next_poll_at    INTEGER,
  attempts        INTEGER NOT NULL DEFAULT 0,
  last_polled_at  INTEGER,
  finished_at     INTEGER,
  notified_at     INTEGER,                  -- set once the OS notification went out (survives restarts)
  outputs         TEXT CHECK (outputs IS NULL OR json_valid(outputs))
) STRICT;

CREATE INDEX jobs_due ON jobs (next_poll_at) WHERE state IN ('queued', 'running');
CREATE INDEX jobs_by_state ON jobs (state);
CREATE INDEX jobs_by_created ON jobs (created_at, local_id);
CREATE INDEX jobs_to_notify ON jobs (finished_at) WHERE notified_at IS NULL AND state IN ('succeeded', 'failed');`;

const DOWNLOADS = `
CREATE TABLE downloads (
  id               INTEGER PRIMARY KEY,
  asset_seq        INTEGER NOT NULL UNIQUE REFERENCES assets (seq) ON DELETE CASCADE,
  url              TEXT,                    -- NULL while a video download is still being prepared
  dest             TEXT NOT NULL,           -- relative to the library root
  state            TEXT NOT NULL
                     CHECK (state IN ('queued', 'preparing', 'downloading', 'paused', 'succeeded', 'failed')),
  prepare_percent  REAL,
  bytes_done       INTEGER NOT NULL DEFAULT 0,
  bytes_total      INTEGER,
  etag             TEXT,
  last_modified    TEXT,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,
  error            TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
) STRICT;

CREATE INDEX downloads_by_state ON downloads (state, next_attempt_at, id);`;

const UPLOADS = `
CREATE TABLE uploads (
  id           INTEGER PRIMARY KEY,
  model_id     TEXT NOT NULL,
  type         TEXT NOT NULL CHECK (type IN ('modelInput', 'auxiliaryType')),
  source_path  TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  bytes        INTEGER,
  sha256       TEXT,
  state        TEXT NOT NULL CHECK (state IN ('queued', 'uploading', 'succeeded', 'failed', 'cancelled')),
  progress     REAL NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
  image_id     TEXT,                        -- the service's image id once uploaded
  error        TEXT,
  attempts     INTEGER NOT NULL DEFAULT 0,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
) STRICT;

CREATE INDEX uploads_by_model ON uploads (model_id, state);
CREATE INDEX uploads_active ON uploads (state, id) WHERE state IN ('queued', 'uploading');`;

const PRESETS_AND_SYNC = `
CREATE TABLE presets (
  tag       TEXT NOT NULL PRIMARY KEY,
  name      TEXT NOT NULL,
  category  TEXT NOT NULL,
  position  INTEGER NOT NULL               -- the service's order, kept within a category
) STRICT;

CREATE TABLE sync_state (
  key         TEXT NOT NULL PRIMARY KEY,
  value       TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;`;

export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  up(db: BetterSqlite3.Database) {
    db.exec(MODELS);
    db.exec(ASSETS);
    db.exec(ASSETS_FTS);
    db.exec(ASSET_COUNTS);
    db.exec(JOBS);
    db.exec(DOWNLOADS);
    db.exec(UPLOADS);
    db.exec(PRESETS_AND_SYNC);
  },
};
