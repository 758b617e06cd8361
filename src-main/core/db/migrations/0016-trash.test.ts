// Migration 16: the trash table, one row per asset, gone with its asset.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 0016 trash', () => {
  it('adds the trash table: one row per asset, removed with its asset, sizes never negative', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 16);
    const db = openDatabase(':memory:', { migrations: earlier });
    db.prepare(
      `INSERT INTO assets (kind, id, origin, created_at, local_created_at, file_state)
       VALUES ('image', 'img_1', 'generated', 1, 1, 'remote')`,
    ).run();
    expect(
      runMigrations(
        db,
        MIGRATIONS.filter((m) => m.version <= 16),
      ),
    ).toEqual([16]);
    const seq = db.prepare(`SELECT seq FROM assets WHERE id = 'img_1'`).pluck().get() as number;
    const add = db.prepare(
      `INSERT INTO trash (asset_seq, original_path, trash_path, bytes, sha256, trashed_at) VALUES (?, ?, ?, ?, NULL, 5)`,
    );
    add.run(seq, 'images/img_1.png', '.trash/images/img_1.png', 10);
    expect(() => add.run(seq, 'images/img_1.png', '.trash/images/other.png', 10)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => add.run(seq + 1, 'images/x.png', '.trash/images/x.png', 1)).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM trash').run();
    expect(() => add.run(seq, 'images/img_1.png', '.trash/images/img_1.png', -1)).toThrow(/CHECK/);
    add.run(seq, 'images/img_1.png', '.trash/images/img_1.png', 10);
    db.prepare('DELETE FROM assets WHERE seq = ?').run(seq);
    expect(db.prepare('SELECT count(*) FROM trash').pluck().get()).toBe(0);
    db.close();
  });
});
