// Schema 14: an asset's media facts — width, height, length and format — known before its file is
// (issues 30 and 31). `format` is the file's format ('png', 'jpeg', 'webp', 'mp4', 'hls', …) and
// `facts_from` says where the facts came from, so a better source replaces a worse one and never
// the other way: 'request' (what the request asked for, contract/media-size.ts) < 'service' (the
// service's record said it) < 'file' (read from the downloaded file). Existing rows are filled
// here from the request they were made with; a size the service's data gave counts as 'service';
// downloaded files are read by the library on its next start (library/file-facts.ts), found
// through the partial index `assets_facts_unread`. With width and height known before a download,
// SQL can filter and sort by shape, and the grid's map (assets:layout) has every shape at once.
import type BetterSqlite3 from 'better-sqlite3';
import { requestedMedia } from '../../../contract/media-size.ts';
import type { Migration } from '../migrate.ts';

export const migration0014: Migration = {
  version: 14,
  name: 'media-facts',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      ALTER TABLE assets ADD COLUMN format TEXT;
      ALTER TABLE assets ADD COLUMN facts_from TEXT
        CHECK (facts_from IS NULL OR facts_from IN ('request', 'service', 'file'));
      UPDATE assets SET facts_from = 'service' WHERE width IS NOT NULL AND height IS NOT NULL;
      CREATE INDEX assets_facts_unread ON assets (created_at DESC, seq DESC)
        WHERE file_state = 'downloaded' AND facts_from IS NOT 'file';`);
    const rows = db
      .prepare<[], { seq: number; kind: 'image' | 'video'; params: string }>(
        `SELECT seq, kind, params FROM assets WHERE params IS NOT NULL AND facts_from IS NULL`,
      )
      .all();
    const fill = db.prepare<[number | null, number | null, number | null, string | null, number]>(
      `UPDATE assets SET width = ?, height = ?, duration_ms = coalesce(?, duration_ms),
         format = coalesce(?, format), facts_from = 'request' WHERE seq = ?`,
    );
    for (const row of rows) {
      let request: unknown;
      try {
        request = JSON.parse(row.params);
      } catch {
        continue;
      }
      const asked = requestedMedia(row.kind, request);
      if (asked.width === null && asked.durationMs === null && asked.format === null) continue;
      fill.run(asked.width, asked.height, asked.durationMs, asked.format, row.seq);
    }
  },
};
