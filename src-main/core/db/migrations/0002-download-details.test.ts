// Migration 2 adds the download manager's columns; rows written by schema 1 keep working.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { migration0001 } from './0001-initial.ts';
import { migration0002 } from './0002-download-details.ts';

describe('migration 0002 download-details', () => {
  it('adds mode, content_type and error_code; old rows read as plain file downloads', () => {
    const db = openDatabase(':memory:', { migrations: [migration0001] });
    db.prepare(
      "INSERT INTO assets (kind, id, origin, created_at, local_created_at) VALUES ('image', 'img_1', 'generated', 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO downloads (asset_seq, dest, state, created_at, updated_at) VALUES (1, 'images/img_1.jpg', 'queued', 1, 1)",
    ).run();
    expect(runMigrations(db, [migration0001, migration0002])).toEqual([2]);
    expect(db.prepare('SELECT mode, content_type, error_code FROM downloads').get()).toEqual({
      mode: 'file',
      content_type: null,
      error_code: null,
    });
    expect(() => db.prepare("UPDATE downloads SET mode = 'torrent'").run()).toThrow(/CHECK/);
    db.close();
  });
});
